"""``python -m thirtyone`` works like ``thirtyone``."""

from thirtyone.cli.app import main

if __name__ == "__main__":
    main()
