"""One HTTP client for the tests' plain requests to the servers they start (http://127.0.0.1:<port>).

httpx's module functions (get, post...) build a client on every call, and with it an SSL context that loads the CA
bundle: 27 ms of CPU here, in loops that poll a starting process every 0.2 s (py-spy: 16 s of the run's samples).
``HTTP`` is built once per process and, like those functions, keeps no connection between requests (each opens its
own), so no test meets a connection left over from another test's server. Its methods take the same arguments."""

from __future__ import annotations

import httpx

HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
