"""Who is asking: the owner's own screen (loopback), or a client of the network counted by its address.

Proxy headers (X-Forwarded-For, Forwarded, X-Real-IP) are never believed here: a loopback connection that
carries one is a proxy relaying someone else, so it is the client ``"proxied"``, never the owner (uvicorn
believes them only with the servers' ``trust_proxy``, webguard/server.py).
"""

from __future__ import annotations

import ipaddress
from typing import Protocol

FORWARDED = ("x-forwarded-for", "forwarded", "x-real-ip")


class _Peer(Protocol):
    @property
    def host(self) -> str: ...  # read-only: Starlette's Address is a named tuple


class _Request(Protocol):
    @property
    def client(self) -> _Peer | None: ...
    @property
    def headers(self) -> object: ...


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and ::ffff:127.x: a client on the appliance's own machine (its screen)."""
    if not host:
        return False
    try:
        addr = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_loopback


def client_key(host: str | None) -> str:
    """The unit wrong PINs and connections are counted by: the IPv4 address, or the IPv6 /64 network (one device
    can use many addresses of its /64)."""
    if not host:
        return "?"
    try:
        addr = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return str(addr)


def client_host(request: _Request) -> str | None:
    """The client's address for the PIN's counters (a Starlette Request or WebSocket). A loopback connection
    that carries a proxy's forwarding header relays someone else (the screen's browser sends none)."""
    host = request.client.host if request.client is not None else None
    headers = request.headers
    if host is not None and is_loopback(host) and any(h in headers for h in FORWARDED):  # type: ignore[operator]
        return "proxied"
    return host
