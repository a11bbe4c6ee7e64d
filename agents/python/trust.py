"""The agent's root of trust and its lease checks (docs/licensing.md, decision 912).

The agent trusts a lease or release key only when a key set signed by the vendor's root names it,
for its purpose, unexpired and unrevoked. The JWKS of the platform is never read: anyone answering
in the platform's name could serve one.
"""

import base64
import hashlib
import json
import re
import time
from datetime import datetime
from urllib.parse import urlparse

import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

KEY_SET_PATH = "/.well-known/bot-keyset.json"
KEY_SET_TYPE = "bot-keyset+jwt"
KEY_REVOCATION_TYPE = "bot-key-revocation+jwt"
LEASE_TYPE = "bot-lease+jwt"
RELEASE_MANIFEST_TYPE = "bot-release+jwt"
# A lease never runs longer than this after its issue, whatever it says (docs/licensing.md).
LEASE_MAX_RUN_SECONDS = 60 * 86_400
# How far the clock may step back (NTP corrections) before the agent calls it moved back.
CLOCK_TOLERANCE_SECONDS = 5 * 60

MESSAGES = {
    "KEY_SET_UNSIGNED": "Jeu de clés refusé : il n’est pas signé par la clé racine de l’éditeur.",
    "KEY_SET_INVALID": "Jeu de clés refusé : illisible.",
    "KEY_SET_ROLLBACK": "Jeu de clés refusé : plus ancien que celui que ce bot connaît déjà.",
    "KEY_SET_EXPIRED": "Jeu de clés refusé : il a expiré.",
    "KEY_SET_UNREACHABLE": "Jeu de clés injoignable : la plateforme ne répond pas.",
    "REVOCATION_INVALID": "Révocation ignorée : elle n’est pas signée par une clé du jeu en service.",
    "LEASE_MALFORMED": "Bail de licence illisible.",
    "LEASE_KEY_UNKNOWN": "Bail signé par une clé inconnue ou révoquée.",
    "LEASE_SIGNATURE_INVALID": "Signature du bail invalide.",
    "LEASE_OTHER_PC": "Ce bail a été délivré pour un autre PC.",
    "LEASE_EXPIRED": "Le bail de licence a expiré (délai de grâce compris) : reconnectez le bot à la plateforme.",
    "LEASE_CLOCK_MOVED_BACK": "L'horloge de ce PC a reculé : le bail ne peut pas être prolongé.",
    "LEASE_KEY_SET_EXPIRED": "Le jeu de clés de la plateforme a expiré : reconnectez le bot à la plateforme pour en obtenir un nouveau.",
    "MANIFEST_INVALID": "Manifeste de mise à jour illisible.",
    "MANIFEST_KEY_UNKNOWN": "Manifeste signé par une clé inconnue.",
    "MANIFEST_EXPIRED": "Manifeste de mise à jour expiré.",
    "MANIFEST_OLDER": "Mise à jour refusée : plus ancienne que la version en service.",
    "MANIFEST_INSECURE_URL": "Mise à jour refusée : adresse de téléchargement non sécurisée.",
    "UPDATE_SIZE_MISMATCH": "Téléchargement refusé : la taille ne correspond pas au manifeste.",
    "UPDATE_CHECKSUM_MISMATCH": "Téléchargement refusé : l’empreinte ne correspond pas au manifeste.",
}


class TrustError(Exception):
    """A refusal with its code; the message is French, for the user."""

    def __init__(self, code):
        super().__init__(MESSAGES[code])
        self.code = code


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def jws_header(token):
    """The protected header of a compact JWS, unverified (to pick the key)."""
    try:
        header = json.loads(b64url_decode(token.split(".")[0]))
    except (ValueError, IndexError):
        return None
    return header if isinstance(header, dict) else None


def verify_jws(token, jwk, expected_typ):
    """The payload of a compact JWS signed with Ed25519 by `jwk`; None when it does not verify."""
    parts = token.split(".")
    header = jws_header(token)
    if len(parts) != 3 or header is None:
        return None
    if header.get("alg") != "EdDSA" or header.get("typ") != expected_typ:
        return None
    try:
        key = Ed25519PublicKey.from_public_bytes(b64url_decode(jwk["x"]))
        key.verify(b64url_decode(parts[2]), f"{parts[0]}.{parts[1]}".encode("ascii"))
        payload = json.loads(b64url_decode(parts[1]))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return None
    return payload if isinstance(payload, dict) else None


class KeyTrust:
    """The keys the agent trusts: those of the newest unexpired set its root signed, minus revoked."""

    def __init__(self, root, platform_url, now=time.time):
        if root.get("kty") != "OKP" or root.get("crv") != "Ed25519" or not root.get("x"):
            raise ValueError("La clé racine doit être une clé publique Ed25519 au format JWK.")
        self.root = root
        self.platform_url = platform_url
        self.now = now
        self.held = None  # (token, claims)
        self.revoked = {}  # revoked kid -> (statement, revokedAt)

    def is_expired(self):
        return self.held is not None and self.held[1]["expiresAt"] <= self.now()

    def adopt(self, token):
        """Takes a set the root signed, with a higher version (the same set again is a no-op)."""
        claims = verify_jws(token, self.root, KEY_SET_TYPE)
        if claims is None:
            raise TrustError("KEY_SET_UNSIGNED")
        if not isinstance(claims.get("version"), int) or not isinstance(claims.get("keys"), list):
            raise TrustError("KEY_SET_INVALID")
        if claims["expiresAt"] <= self.now():
            raise TrustError("KEY_SET_EXPIRED")
        if self.held and claims["version"] <= self.held[1]["version"]:
            if token == self.held[0]:
                return
            raise TrustError("KEY_SET_ROLLBACK")
        self.held = (token, claims)
        named = {key.get("kid") for key in claims["keys"]}
        for kid, (_statement, revoked_at) in list(self.revoked.items()):
            if kid not in named or claims["issuedAt"] > revoked_at:
                del self.revoked[kid]

    def refresh(self):
        """Fetches the signed set and its revocations; what does not verify changes nothing."""
        try:
            answer = requests.get(self.platform_url + KEY_SET_PATH, timeout=10)
            body = answer.json() if answer.ok else None
        except (requests.RequestException, ValueError):
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("keySet"), str):
            raise TrustError("KEY_SET_UNREACHABLE")
        try:
            self.adopt(body["keySet"])
        except TrustError as error:
            if error.code != "KEY_SET_ROLLBACK":
                raise
        for statement in body.get("revocations") or []:
            try:
                self.revoke(str(statement))
            except TrustError:
                pass

    def revoke(self, statement):
        """Applies a revocation signed by a key of the set; answers the revoked kid."""
        header = jws_header(statement) or {}
        signer = next((key for key in self.trusted() if key["kid"] == header.get("kid")), None)
        claims = verify_jws(statement, signer, KEY_REVOCATION_TYPE) if signer else None
        if claims is None or not claims.get("revokedKid"):
            raise TrustError("REVOCATION_INVALID")
        kid = claims["revokedKid"]
        if any(key.get("kid") == kid for key in self.held[1]["keys"]):
            self.revoked.setdefault(kid, (statement, claims.get("revokedAt", 0)))
        return kid

    def trusted(self, purpose=None):
        """The keys trusted now: named by the held set, unexpired, unrevoked (of a purpose)."""
        if self.held is None or self.is_expired():
            return []
        return [
            key
            for key in self.held[1]["keys"]
            if (purpose is None or key.get("purpose") == purpose)
            and key.get("expiresAt", 0) > self.now()
            and key.get("kid") not in self.revoked
        ]

    def key_for(self, kid, purpose):
        """The trusted key of that kid and purpose; fetches the set once when it is unknown."""
        key = next((key for key in self.trusted(purpose) if key["kid"] == kid), None)
        if key is None:
            try:
                self.refresh()
            except TrustError:
                pass
            key = next((key for key in self.trusted(purpose) if key["kid"] == kid), None)
        return key

    def expiry_of(self, kid):
        key = next((key for key in self.held[1]["keys"] if key.get("kid") == kid), None)
        return min(key["expiresAt"], self.held[1]["expiresAt"]) if key else 0


class LeaseVerifier:
    """Verifies leases offline (docs/licensing.md, "The lease format": the five checks)."""

    def __init__(self, trust, hwid, now=time.time):
        self.trust = trust
        self.own_hash = sha256_hex(hwid)
        self.now = now
        self.latest_seen = 0

    def verify(self, token, bound_hwid):
        header = jws_header(token)
        if header is None or not header.get("kid"):
            raise TrustError("LEASE_MALFORMED")
        key = self.trust.key_for(header["kid"], "lease")
        if key is None:
            raise TrustError("LEASE_KEY_SET_EXPIRED" if self.trust.is_expired() else "LEASE_KEY_UNKNOWN")
        claims = verify_jws(token, key, LEASE_TYPE)
        if claims is None:
            raise TrustError("LEASE_SIGNATURE_INVALID")
        bound_hash = sha256_hex(bound_hwid)
        if claims.get("hwid") != bound_hash or (
            bound_hash != self.own_hash and claims.get("agentHwid") != self.own_hash
        ):
            raise TrustError("LEASE_OTHER_PC")
        now = self.now()
        if now < max(self.latest_seen, claims["iat"]) - CLOCK_TOLERANCE_SECONDS:
            raise TrustError("LEASE_CLOCK_MOVED_BACK")
        stops_at = min(
            claims["exp"] + claims.get("grace", 0),
            latest_entitlement_end(claims),
            self.trust.expiry_of(header["kid"]),
            claims["iat"] + LEASE_MAX_RUN_SECONDS,
        )
        if now >= stops_at:
            raise TrustError("LEASE_EXPIRED")
        self.latest_seen = max(self.latest_seen, now, claims["iat"])
        return {"token": token, "kid": header["kid"], "claims": claims, "stops_at": stops_at}


def latest_entitlement_end(claims):
    """The latest end of the lease's entitlements; infinite when one of them has none."""
    ends = claims.get("entitlementEnds") or {}
    values = [ends.get(name) for name in claims.get("entitlements", [])]
    if not values or any(value is None for value in values):
        return float("inf")
    return max(parse_iso(value) for value in values)


def parse_iso(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def verify_manifest(trust, token, running_version, now=time.time):
    """A release manifest signed by a release key of the set (decisions 910, 912): never an older
    build, unless it is a signed rollback away from the very version running here."""
    key = trust.key_for((jws_header(token) or {}).get("kid"), "release")
    if key is None:
        raise TrustError("MANIFEST_KEY_UNKNOWN")
    claims = verify_jws(token, key, RELEASE_MANIFEST_TYPE)
    if claims is None or not isinstance(claims.get("exp"), (int, float)) or "url" not in claims:
        raise TrustError("MANIFEST_INVALID")
    if claims["exp"] <= now():
        raise TrustError("MANIFEST_EXPIRED")
    is_rollback = claims.get("rollback") is True and claims.get("rollbackFrom") == running_version
    if compare_versions(claims["version"], running_version) < 0 and not is_rollback:
        raise TrustError("MANIFEST_OLDER")
    if not is_secure_url(claims["url"]):
        raise TrustError("MANIFEST_INSECURE_URL")
    return claims


def is_secure_url(url):
    """https://, or http:// to this machine only: anyone on the path of a plain connection could
    answer in the platform's name."""
    parsed = urlparse(url)
    host = (parsed.hostname or "").lower()
    is_loopback = host in ("localhost", "::1") or host.endswith(".localhost") or re.fullmatch(
        r"127\.\d+\.\d+\.\d+", host
    )
    return parsed.scheme == "https" or (parsed.scheme == "http" and bool(is_loopback))


def compare_versions(a, b):
    """Semantic versions: negative when `a` is older; a pre-release is older than its release."""

    def split(version):
        core, _, pre = version.split("+")[0].partition("-")
        return core.split("."), pre.split(".") if pre else None

    def compare_parts(left, right):
        for x, y in zip(left, right):
            if x != y:
                if x.isdigit() and y.isdigit():
                    return int(x) - int(y)
                return -1 if x < y else 1
        return len(left) - len(right)

    (core_a, pre_a), (core_b, pre_b) = split(a), split(b)
    by_core = compare_parts(core_a, core_b)
    if by_core != 0 or (pre_a is None and pre_b is None):
        return by_core
    if pre_a is None or pre_b is None:
        return 1 if pre_a is None else -1
    return compare_parts(pre_a, pre_b)
