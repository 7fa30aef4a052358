"""``python -m eywa.cli``: the same app as the ``eywa`` console script."""

from eywa.cli import main

main()
