"""The visual editor: `server.py` serves the page (static/) and hands its API calls to the memory server.

The page's libraries are vendored into static/vendor/ by build.sh from the
pinned package-lock.json, so an installed package needs neither npm nor the
network.
"""
