"""How often members and strangers may ask, checked on the front before a request costs any
worker anything: a refused request is answered from the event loop at once.

- **A member** has one token bucket over all their sockets and HTTP requests together (a
  second socket or a reconnect shares it): `rate` a second on average, `burst` at once. A
  write (an intent, chat, a GM's tool) or a socket message costs 1, a read costs
  `READ_COST` (a page refreshes its view, offers and advice after each entry), and a read
  of the log or an export one more for each `READ_BYTES` it carries.
- **A client address** has one for what needs no member's link: opening a room, joining,
  `/verify`, `/import`, QR codes (a body costs one more per MiB), and every link its
  requests name that opens nothing (so guessing tokens is as slow as opening rooms).
  Behind a reverse proxy every request comes from the proxy: with `trusted` proxies,
  a request from one of them is taken to come from the address its `X-Forwarded-For` names
  (the rightmost one that is not itself a trusted proxy); from any other peer the header is
  ignored. An IPv6 client is charged as its /64 (`ipv6_prefix`): one host commonly holds
  a whole /64, and a bucket per address would give it 2^64 of them.

The front learns which member a token opens from the shard's first answer to it and
forgets it when the member's link ends (a kick, a new link); the shard still checks every
token, so a stale entry here only charges the wrong bucket until then.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.rooms.errors import RoomError, TooMuch

RATE = 20.0
"""Requests a second, on average, from one member over all their sockets and HTTP."""

READ_COST = 0.25
"""What a read costs a member's bucket (a write or a socket message costs 1)."""

READ_BYTES = 64 * 1024
"""Bytes a read carries for each request of the allowance it costs besides: a page of the
log, a catch-up's page or a chunk of an export costs what it reads (a full page of 256 KiB
four more), so one member reads about 1.3 MB a second at length, after a burst of 2.5 MB."""

ADDRESS_RATE = 2.0
"""Requests a second, on average, from one client address to what needs no member's link."""

ADDRESS_BURST = 60.0
"""How many of those at once (a table of players joining from one home network)."""

MIB = 1024 * 1024

MAX_REMEMBERED = 100_000
"""Buckets and tokens the front keeps before it forgets the idle ones."""


class Bucket:
    """A token bucket: `rate` a second on average, `burst` at once."""

    __slots__ = ("_at", "_tokens", "burst", "rate")

    def __init__(self, rate: float = RATE, burst: float = 2 * RATE) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = burst
        self._at = time.monotonic()

    def _refill(self) -> float:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        return self._tokens

    def take(self, cost: float = 1.0) -> bool:
        """Take `cost` if the bucket holds it; whether it did."""
        if self._refill() < cost:
            return False
        self._tokens -= cost
        return True

    def charge(self, cost: float = 1.0) -> None:
        """Take `cost` even past empty (work already done for a member not yet known)."""
        self._tokens = self._refill() - cost

    def holds(self, cost: float = 1.0) -> bool:
        return self._refill() >= cost

    @property
    def level(self) -> float:
        return self._refill()

    @property
    def owed(self) -> float:
        """Seconds until the bucket is out of debt (0 when it is not)."""
        return max(0.0, -self._refill() / self.rate)

    @property
    def full(self) -> bool:
        return self._refill() >= self.burst


IPV6_PREFIX = 64
"""The IPv6 network one address bucket covers: one host is commonly given a whole /64."""


@dataclass(frozen=True)
class Rates:
    """The allowances a server grants (`tabletop serve --rate`, `--address-rate`,
    `--ipv6-prefix`)."""

    member: float = RATE
    member_burst: float | None = None
    """Default: twice `member`, at least one request."""
    address: float = ADDRESS_RATE
    address_burst: float = ADDRESS_BURST
    ipv6_prefix: int = IPV6_PREFIX
    """IPv6 clients share a bucket per network of this prefix (48 to 128)."""

    @property
    def burst(self) -> float:
        return self.member_burst if self.member_burst is not None else max(1.0, 2 * self.member)


class Allowances:
    """The buckets of one front: per member, per client address."""

    def __init__(self, rates: Rates | None = None, trusted: Sequence[str] = ()) -> None:
        self.rates = rates or Rates()
        self.trusted = [proxy_network(proxy) for proxy in trusted]
        self._members: dict[tuple[str, str], Bucket] = {}
        self._addresses: dict[str, Bucket] = {}
        self._tokens: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._links: dict[tuple[str, str], set[str]] = {}

    # who asks ---------------------------------------------------------------------------

    def client(self, peer: str | None, forwarded: str | None) -> str:
        """The address a request comes from: its peer's, or, when the peer is a trusted
        proxy, the rightmost address of `X-Forwarded-For` that is not a trusted proxy."""
        address = peer or "-"
        if not forwarded or not self._trusted(address):
            return address
        hops = [hop.strip() for hop in forwarded.split(",")[-32:] if hop.strip()]
        for hop in reversed(hops):
            if not self._trusted(hop):
                return hop[:64]
        return hops[0][:64] if hops else address

    def _trusted(self, address: str) -> bool:
        try:
            found = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(found in network for network in self.trusted)

    def member_of(self, room: str, token: str) -> str | None:
        """The member `token` opened in `room` when last asked, if the front knows."""
        known = self._tokens.get(_key(token))
        return known[1] if known is not None and known[0] == room else None

    def learn(self, room: str, token: str, member: str) -> None:
        key = _key(token)
        self._tokens[key] = (room, member)
        self._tokens.move_to_end(key)
        self._links.setdefault((room, member), set()).add(key)
        while len(self._tokens) > MAX_REMEMBERED:
            old, (old_room, old_member) = self._tokens.popitem(last=False)
            self._links.get((old_room, old_member), set()).discard(old)

    def forget(self, room: str, member: str) -> None:
        """A member's link ended (kicked, or a new link): their old token opens nothing."""
        for key in self._links.pop((room, member), set()):
            self._tokens.pop(key, None)

    # taking -----------------------------------------------------------------------------

    def take(self, room: str, member: str, cost: float = 1.0) -> None:
        """Take from the member's bucket, or refuse with one line."""
        bucket = self._member(room, member)
        if not bucket.take(cost):
            raise TooMuch(
                f"slow down: at most {self.rates.member:g} messages a second from one member, "
                "over all their sockets and requests",
                retry_after=(cost - bucket.level) / bucket.rate,
            )

    def charge(self, room: str, member: str, cost: float = 1.0) -> None:
        self._member(room, member).charge(cost)

    def read(self, room: str, member: str, size: int) -> None:
        """Charge what a read carried (`READ_BYTES`), past empty if need be: its next
        request waits or is refused until the bucket refills."""
        self._member(room, member).charge(size / READ_BYTES)

    def wait(self, room: str, member: str, cost: float = READ_COST) -> float:
        """Take `cost` from the member's bucket now, even past empty: the seconds to wait
        before using it (a catch-up or an export is paced by the allowance, not refused)."""
        bucket = self._member(room, member)
        bucket.charge(cost)
        return bucket.owed

    def take_address(self, address: str, cost: float = 1.0) -> None:
        """Take from the address's bucket, or refuse with one line."""
        if not self._address(address).take(cost):
            raise TooMuch(
                f"slow down: at most {self.rates.address:g} requests a second from one address "
                "to open, join, import or verify rooms, or with a link that opens nothing"
            )

    def admit_stranger(self, address: str) -> None:
        """A request with a token the front does not know yet: refused at once if this
        address has spent its allowance (guessing links), else let through for free."""
        if not self._address(address).holds():
            raise TooMuch(
                "slow down: too many requests from this address with links that open nothing"
            )

    def failed(self, address: str) -> None:
        """A link from this address opened nothing: it costs the address."""
        self._address(address).charge()

    def _member(self, room: str, member: str) -> Bucket:
        bucket = self._members.get((room, member))
        if bucket is None:
            _forget_full(self._members)
            bucket = self._members[(room, member)] = Bucket(self.rates.member, self.rates.burst)
        return bucket

    def _address(self, address: str) -> Bucket:
        key = bucket_of(address, self.rates.ipv6_prefix)
        bucket = self._addresses.get(key)
        if bucket is None:
            _forget_full(self._addresses)
            rates = self.rates
            bucket = self._addresses[key] = Bucket(rates.address, rates.address_burst)
        return bucket


def bucket_of(address: str, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The bucket an address is charged to: an IPv4 address its own (an IPv4-mapped IPv6
    one too), an IPv6 address its network of `ipv6_prefix` bits; anything else as given."""
    try:
        found = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    if isinstance(found, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{found}/{ipv6_prefix}", strict=False))
    return str(found)


def body_cost(size: int) -> float:
    """What a body of `size` bytes costs its address: one request, and one more per MiB."""
    return 1.0 + size / MIB


def proxy_network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy's address or network (`--trust-proxy 10.0.0.2`, `10.0.0.0/24`)."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise RoomError(
            f"--trust-proxy takes an IP address or network, not {text[:60]!r}"
        ) from None


def _key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _forget_full(buckets: dict[Any, Bucket]) -> None:
    """Past `MAX_REMEMBERED`, drop the buckets that have refilled (forgetting them changes
    nothing: a new bucket starts full)."""
    if len(buckets) >= MAX_REMEMBERED:
        for key in [key for key, bucket in buckets.items() if bucket.full]:
            del buckets[key]
