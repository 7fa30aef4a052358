"""Store interfaces (``typing.Protocol``), one per aggregate, with embedded and server
implementations in sub-packages. Code outside ``eywa.stores`` never asks which backend it
runs on: it receives a ``Stores`` bundle and calls the protocols.
"""
