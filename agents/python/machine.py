"""This PC's parts, as the platform wants them (docs/licensing.md, "The PC")."""

import hashlib
import hmac

# The product's key the parts are hashed with: not a secret, but changing it makes every PC new.
DEFAULT_HWID_PRODUCT_KEY = "bot-platform:hwid-components:v1"


def machine_components(product_key):
    """The PC's parts as the platform wants them: HMAC-SHA-256 under the product key, never raw."""
    raw = {"machine": read_first(["/etc/machine-id", "/var/lib/dbus/machine-id"]), "cpu": cpu_model()}
    return {
        name: hmac.new(product_key.encode(), f"{name}:{value.strip().lower()}".encode(), hashlib.sha256).hexdigest()
        for name, value in raw.items()
        if value
    }


def read_first(paths):
    for path in paths:
        try:
            with open(path, encoding="utf-8") as file:
                value = file.read().strip()
            if value:
                return value
        except OSError:
            continue
    return None


def cpu_model():
    for line in (read_first(["/proc/cpuinfo"]) or "").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return None
