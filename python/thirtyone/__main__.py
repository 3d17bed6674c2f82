"""``python -m thirtyone`` works like ``thirtyone``."""

from thirtyone.cli import main

if __name__ == "__main__":
    main()
