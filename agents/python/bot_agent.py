#!/usr/bin/python3
"""A reference bot agent in Python, written from docs/ (agents/python/README.md).

Standard library plus Debian's python3-socketio, python3-websocket, python3-requests and
python3-cryptography. It opens a bot session, verifies its lease offline against the key set its
root signed and renews it, reports its accounts, runs remote commands, streams its log on request,
stops when the platform refuses it for good, and reconnects after a server restart.

Configuration (the conformance kit's contract, apps/bot-agent/README.md): BOT_PLATFORM_URL,
BOT_ACCESS_KEY, BOT_HWID, BOT_TRUST_ROOT (the root's public JWK, JSON); BOT_VERSION (default 1.0.0).
Exit codes: 0 stopped by a signal, 2 refused for good by the platform, 3 the platform is not trusted.
"""

import hashlib
import json
import os
import random
import signal
import sys
import threading
import time

import requests
import socketio

from agent_log import AgentLog
from machine import DEFAULT_HWID_PRODUCT_KEY, machine_components
from trust import KeyTrust, LeaseVerifier, TrustError, is_secure_url, verify_manifest

# Refusals after which reconnecting cannot help (docs/licensing.md, the SDK's README).
FINAL_CODES = {
    "BOT_REPLACED", "BOT_KICKED", "BOT_KEY_INVALID", "BOT_PERMISSION_REQUIRED", "BOT_VERSION_OUTDATED",
    "ACCOUNT_BANNED", "ACCOUNT_NOT_ACTIVATED", "HWID_MISMATCH", "HWID_TAKEN", "HWID_RELEASED",
    "HWID_CHANGE_LIMIT",
}
REPORT_EVERY_SECONDS = 2  # well under the server's silence timeout, under its 4 reports a second
RETRY_SECONDS = 60


class Refused(Exception):
    """The platform refused the agent for good (a final code), or is not trusted (exit 3)."""

    def __init__(self, message, code, exit_code=2):
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(body.get("error") or f"HTTP {status}")
        self.status = status
        self.code = body.get("code") or "HTTP_ERROR"
        self.details = body.get("details") or {}


def reconnection_delay(attempt):
    """Doubling from 1 s to 5 s, ±50 % (the specification's reconnection settings)."""
    base = min(5.0, 1.0 * 2**attempt)
    return random.uniform(base * 0.5, min(5.0, base * 1.5))


class Agent:
    def __init__(self, platform_url, access_key, hwid, trust_root, version):
        if not is_secure_url(platform_url):
            raise ValueError(f"Adresse refusée : {platform_url} — utilisez https://.")
        self.url = platform_url.rstrip("/")
        self.access_key = access_key
        self.hwid = hwid
        self.bound_hwid = hwid
        self.version = version
        self.trust = KeyTrust(trust_root, self.url)
        self.verifier = LeaseVerifier(self.trust, hwid)
        self.log = AgentLog(lambda batch: self.emit("bot_log", batch))
        self.session = None
        self.lease = None
        self.accounts = []
        self.paused = False
        self.stats = {}
        self.outcomes = {}  # command id -> result, so a re-sent command is not run twice
        self.unsent_results = []
        self.sio = None
        self.authenticated = False
        self.last_refusal = None
        self.final = None  # the Refused that stops the agent
        self.stopping = threading.Event()
        self.renew_at = 0.0

    # --- HTTP -----------------------------------------------------------------------------------

    def post(self, route, body):
        answer = requests.post(f"{self.url}/api{route}", json=body, timeout=20)
        try:
            payload = answer.json()
        except ValueError:
            payload = {}
        if answer.status_code >= 400:
            raise ApiError(answer.status_code, payload if isinstance(payload, dict) else {})
        return payload

    def open_session(self):
        """POST /api/bot/sessions; the answer's hwid is used only with a lease that vouches for it."""
        try:
            body = self.post("/bot/sessions", {
                "accessKey": self.access_key,
                "hwid": self.hwid,
                "components": machine_components(os.environ.get("BOT_PRODUCT_KEY", DEFAULT_HWID_PRODUCT_KEY)),
                "version": self.version,
            })
        except ApiError as error:
            raise self.refusal(error) from error
        self.accept_lease(body.get("lease") or "", body.get("hwid") or self.hwid)
        self.session = {"token": body["token"], "expiresAt": body["expiresAt"]}
        self.accounts = list(body.get("whitelist") or [])
        self.log.write("info", f"Session ouverte pour {self.bound_hwid} ({len(self.accounts)} compte(s) autorisé(s)).")
        if body.get("update"):
            self.offer_update(body["update"])

    def refusal(self, error):
        """An API refusal: final ones stop the agent (a 426 names the minimum version)."""
        if error.status == 426 or error.code in FINAL_CODES:
            minimum = error.details.get("minBotVersion")
            page = error.details.get("pageUrl")
            extra = f" (version minimale {minimum}, téléchargement : {page})" if minimum else ""
            return Refused(f"{error}{extra}", error.code)
        return error

    def accept_lease(self, token, bound_hwid):
        try:
            lease = self.verifier.verify(token, bound_hwid)
        except TrustError as error:
            raise Refused(f"Plateforme non reconnue : {error}", error.code, exit_code=3) from error
        self.lease, self.bound_hwid = lease, bound_hwid
        issued, expires = lease["claims"]["iat"], lease["claims"]["exp"]
        # Renew at 80 % of the lifetime, never sooner than a minute from now (a clock far ahead).
        self.renew_at = max(issued + (expires - issued) * 0.8, time.time() + RETRY_SECONDS)

    def renew_lease(self):
        try:
            body = self.post("/bot/lease", {"token": self.session["token"], "hwid": self.bound_hwid})
        except ApiError as error:
            if error.code == "BOT_SESSION_INVALID":
                return self.open_session()
            raise self.refusal(error) from error
        self.accept_lease(body.get("lease") or "", self.bound_hwid)
        self.log.write("info", "Bail renouvelé.")

    def keep_lease(self):
        """Renews when due; while the platform is unreachable, runs on the lease until it stops."""
        if self.lease is None or time.time() < self.renew_at:
            return
        try:
            self.renew_lease()
        except Refused as refused:
            self.stop(refused)
        except (requests.RequestException, ApiError) as error:
            self.renew_at = time.time() + RETRY_SECONDS
            self.log.write("warn", f"Bail non renouvelé ({error}) : nouvel essai dans une minute.")
            if time.time() >= self.lease["stops_at"]:
                self.stop(Refused(TrustError("LEASE_EXPIRED").args[0], "LEASE_EXPIRED"))

    # --- the socket -----------------------------------------------------------------------------

    def emit(self, event, payload, callback=None):
        sio = self.sio
        if sio is None or not self.authenticated:
            return False
        try:
            sio.emit(event, payload, callback=callback or self.answer_of(event))
        except socketio.exceptions.SocketIOError:
            return False  # the connection closed under us: the run loop reconnects
        return True

    def answer_of(self, event):
        """The server answers each message: a refusal names what it refused, printed (docs/protocol.md)."""

        def answered(answer=None):
            if isinstance(answer, dict) and answer.get("ok") is False:
                refusal = f"[refus] {event} : {answer.get('code')} {answer.get('error')}"
                print(refusal, file=sys.stderr, flush=True)

        return answered

    def new_socket(self):
        # The library's own reconnection is off: it does not reconnect after a server-side close.
        sio = socketio.Client(reconnection=False, handle_sigint=False)
        sio.on("connect", lambda: self.authenticate(sio))
        sio.on("auth_error", self.on_auth_error)
        sio.on("lease_revoked", self.on_lease_revoked)
        sio.on("bot_command", self.on_command)
        sio.on("bot_log_start", lambda *_: self.log.start())
        sio.on("bot_log_stop", lambda *_: self.log.stop())
        sio.on("update_available", lambda offer: self.in_background(self.offer_update, offer))
        return sio

    def authenticate(self, sio):
        def answered(answer):
            if not answer.get("ok"):
                return  # auth_error follows and the server closes the socket
            self.authenticated = True
            self.log.write("info", "Connecté à la plateforme.")
            results, self.unsent_results = self.unsent_results, []
            for result in results:
                self.emit("bot_command_result", result)
            self.report()

        payload = {"type": "bot", "token": self.session["token"], "hwid": self.bound_hwid}
        sio.emit("authenticate", payload, callback=answered)

    def on_auth_error(self, body):
        self.last_refusal = body.get("code")
        self.log.write("warn", f"Refusé par la plateforme : {body.get('error')} ({body.get('code')}).")
        if body.get("code") in FINAL_CODES:
            self.final = Refused(body.get("error"), body.get("code"))

    def on_lease_revoked(self, body):
        if not body.get("kid"):
            # The licence itself is revoked: auth_error follows; never run on the lease offline.
            self.lease = None
            self.final = Refused(body.get("error"), body.get("code"))
            return
        self.in_background(self.key_revoked, body)

    def key_revoked(self, body):
        """A signing key was revoked: applied only when a key of the set signed the statement."""
        try:
            kid = self.trust.revoke(body.get("statement") or "")
        except TrustError as error:
            return self.log.write("warn", str(error))
        self.log.write("info", "Clé de signature révoquée : nouveau bail demandé.")
        if self.lease and self.lease["kid"] == kid:
            self.renew_at = 0
            try:
                self.renew_lease()
            except (requests.RequestException, ApiError) as error:
                self.log.write("warn", f"Bail non renouvelé ({error}) : nouvel essai dans une minute.")
                self.renew_at = time.time() + RETRY_SECONDS
            except Refused as error:
                self.stop(error)

    def on_command(self, command):
        """Acknowledged at once (the only way past `sent`), run once per id, its outcome sent."""
        self.emit("bot_command_ack", {"id": command["id"]})
        result = self.outcomes.get(command["id"]) or self.run_command(command)
        self.outcomes[command["id"]] = result
        if not self.emit("bot_command_result", result):
            self.unsent_results.append(result)

    def run_command(self, command):
        kind, payload = command.get("kind"), command.get("payload") or {}
        self.log.write("info", f"Commande reçue : {kind}.")
        if kind in ("pause", "resume"):
            self.paused = kind == "pause"
            self.in_background(self.report)
        elif kind == "restart":
            self.in_background(self.drop_connection)
        elif kind == "stopAccount":
            self.stats.setdefault(payload.get("account"), {})["stopped"] = True
        elif kind != "configure":
            return {"id": command["id"], "ok": False, "message": "Commande non prise en charge par cet agent."}
        return {"id": command["id"], "ok": True}

    def offer_update(self, offer):
        """A build is trusted only from its signed manifest; a rollback is downloaded at once."""
        try:
            manifest = verify_manifest(self.trust, offer.get("manifest") or "", self.version)
        except TrustError as error:
            return self.log.write("warn", f"Mise à jour {offer.get('version')} refusée : {error}")
        if not manifest.get("rollback"):
            return self.log.write("info", f"Mise à jour disponible : {manifest['version']}.")
        build = requests.get(manifest["url"], timeout=600).content
        if len(build) != manifest["size"]:
            return self.log.write("warn", TrustError("UPDATE_SIZE_MISMATCH").args[0])
        if hashlib.sha256(build).hexdigest() != manifest["sha256"]:
            return self.log.write("warn", TrustError("UPDATE_CHECKSUM_MISMATCH").args[0])
        self.log.write("warn", f"Version {self.version} retirée : retour à {manifest['version']} téléchargé et vérifié.")

    # --- reports --------------------------------------------------------------------------------

    def report(self):
        """The accounts' state; stats are cumulative counters since the agent started."""
        accounts = []
        for name in self.accounts[:8]:
            stats = self.stats.setdefault(name, {})
            running = not self.paused and not stats.get("stopped")
            if running:
                stats["gathered"] = stats.get("gathered", 0) + random.randint(0, 3)
                stats["kamas"] = stats.get("kamas", 0) + random.randint(0, 50)
            accounts.append({
                "name": name,
                "character": f"{name}-perso",
                "level": 50,
                "status": "gathering" if running else "stopped",
                "position": {"mapId": 10_000_000, "x": 0, "y": 0},
                "routeId": None,
                "stats": {key: stats.get(key, 0) for key in ("gathered", "treasures", "kamas", "xp")},
                "message": None,
            })
        report = {"accounts": accounts, **({"paused": True} if self.paused else {})}
        self.emit("bot_update", report)

    # --- life -----------------------------------------------------------------------------------

    def in_background(self, task, *args):
        threading.Thread(target=task, args=args, daemon=True).start()

    def drop_connection(self):
        sio = self.sio
        if sio is not None:
            sio.disconnect()

    def stop(self, refused=None):
        if refused is not None and self.final is None:
            self.final = refused
        self.stopping.set()
        self.in_background(self.drop_connection)

    def tick(self):
        """Reports, log lines and the lease, while the agent runs (the socket's events aside)."""
        last_report = 0.0
        while not self.stopping.wait(0.25):
            try:
                self.log.flush()
                if time.time() - last_report >= REPORT_EVERY_SECONDS:
                    self.report()
                    last_report = time.time()
                self.keep_lease()
            except Exception as error:  # noqa: BLE001 — this loop keeps the agent alive: never let it die
                self.log.write("error", f"Erreur interne : {error!r}")

    def run(self):
        """Connects, and after any close reconnects with back-off unless the last refusal was final."""
        self.log.write("info", f"Agent Python {self.version} démarré.")
        threading.Thread(target=self.tick, daemon=True).start()
        attempt = 0
        while not self.stopping.is_set():
            try:
                self.connect_once()
            except (requests.RequestException, ApiError, socketio.exceptions.ConnectionError) as error:
                self.log.write("warn", f"Connexion impossible : {error}")
            attempt = 0 if self.authenticated else attempt + 1
            self.authenticated = False
            self.log.stop()
            if self.final is not None:
                raise self.final
            self.stopping.wait(reconnection_delay(attempt))

    def connect_once(self):
        """One connection, from the session (a new one when the last was refused) to its close."""
        if self.session is None or self.last_refusal == "BOT_SESSION_INVALID":
            self.open_session()
        self.last_refusal = None
        self.sio = self.new_socket()
        self.sio.connect(self.url, transports=["websocket"], socketio_path="socket.io", wait_timeout=10)
        self.sio.wait()


def main():
    missing = [name for name in ("BOT_PLATFORM_URL", "BOT_ACCESS_KEY", "BOT_HWID", "BOT_TRUST_ROOT") if not os.environ.get(name)]
    if missing:
        print(f"Variables manquantes : {', '.join(missing)} (agents/python/README.md).", file=sys.stderr)
        return 64
    agent = Agent(
        os.environ["BOT_PLATFORM_URL"],
        os.environ["BOT_ACCESS_KEY"],
        os.environ["BOT_HWID"],
        json.loads(os.environ["BOT_TRUST_ROOT"]),
        os.environ.get("BOT_VERSION", "1.0.0"),
    )
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: agent.stop())
    try:
        agent.run()
    except Refused as refused:
        print(f"Arrêt : {refused} ({refused.code})", file=sys.stderr, flush=True)
        return refused.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
