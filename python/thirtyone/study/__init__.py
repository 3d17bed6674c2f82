"""Studies of the players and the Oracle: tournaments, the calibration of the Oracle's figures
against outcomes, the review of a saved game, and the worker processes they spread over."""
