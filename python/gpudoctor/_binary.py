"""Finding the carried gpudoctor binary, saying clearly when it cannot run here, and running it."""
import os
import platform
import subprocess
import sys


class GpudoctorError(Exception):
    """gpudoctor ran but could not do what was asked (a usage or internal error, exit status 2)."""


class BinaryUnavailable(GpudoctorError):
    """The gpudoctor binary is missing or cannot run on this platform."""


def binary_path():
    """GPUDOCTOR_BINARY when set (a build of your own), else the binary inside this package."""
    return os.environ.get("GPUDOCTOR_BINARY") or os.path.join(os.path.dirname(__file__), "bin", "gpudoctor")


def _required_glibc_minor():
    try:
        from gpudoctor._build_info import GLIBC_MINOR
    except ImportError:  # a source checkout run against a binary of the user's choosing
        return None
    return GLIBC_MINOR


def _platform_name():
    libc, version = platform.libc_ver()
    return f"{sys.platform} {platform.machine()}" + (f" with {libc} {version}" if libc else " without glibc")


def runnable_binary():
    """The binary's path. REQUIRES: nothing; raises BinaryUnavailable with the platform named when
    the carried binary (Linux x86-64, glibc 2.N or newer) cannot run here."""
    path = binary_path()
    minor = _required_glibc_minor()
    needs = "Linux x86-64" + (f" with glibc 2.{minor} or newer" if minor else "")
    if minor is not None:
        if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
            raise BinaryUnavailable(f"the gpudoctor binary in this package runs on {needs}; this is {_platform_name()}")
        libc = os.confstr("CS_GNU_LIBC_VERSION") if "CS_GNU_LIBC_VERSION" in os.confstr_names else None
        parts = libc.split()[-1].split(".") if libc and libc.startswith("glibc") else None
        if not parts or len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) < minor:
            raise BinaryUnavailable(f"the gpudoctor binary in this package runs on {needs}; this is {_platform_name()}")
    if not os.path.isfile(path):
        raise BinaryUnavailable(f"no gpudoctor binary at {path}: build one (scripts/setup) and set GPUDOCTOR_BINARY")
    if not os.access(path, os.X_OK):
        raise BinaryUnavailable(f"{path} is not executable")
    return path


def run(args, *, stdin=None, timeout):
    """Runs the binary with `args`, returns (exit status, stdout bytes, stderr text)."""
    path = runnable_binary()
    try:
        done = subprocess.run(
            [path, *args],
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "NO_COLOR": "1"},
        )
    except subprocess.TimeoutExpired:
        raise GpudoctorError(f"gpudoctor {' '.join(args[:1])} did not finish within {timeout:g} s") from None
    except OSError as e:
        raise BinaryUnavailable(f"cannot run {path} on {_platform_name()}: {e.strerror}") from None
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")
