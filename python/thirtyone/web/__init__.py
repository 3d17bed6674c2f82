"""The browser front-end: a local web server (``thirtyone serve``), its pages and its API."""
