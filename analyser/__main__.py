"""`python -m analyser` is the `boston-analyser` command."""

from analyser.cli import main

raise SystemExit(main())
