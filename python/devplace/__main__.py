"""``python -m devplace``: the devplace command."""

from devplace import main

main()
