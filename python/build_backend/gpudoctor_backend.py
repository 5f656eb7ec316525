"""A PEP 517 build backend for the gpudoctor wheel: offline, no dependency but the standard library.

The wheel carries the portable native binary (every library but glibc linked in, see
cmake/portable.cmake). Its tag is computed from that binary: py3-none-manylinux_2_<N>_x86_64, N the
newest glibc symbol version it needs, so pip installs it only where it can run.

The binary is taken from config setting `binary` or GPUDOCTOR_WHEEL_BINARY (scripts/release builds
dist/gpudoctor and passes it); its `--version` gives the wheel's version.
"""
import base64
import hashlib
import io
import os
import re
import stat
import subprocess
import time
import tomllib
import zipfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCE = os.path.dirname(_HERE)
_PACKAGE = "gpudoctor"
# manylinux_2_17 (manylinux2014) is the oldest tag pip still knows as a platform of its own.
_OLDEST_GLIBC_MINOR = 17
_ELF_MAGIC = b"\x7fELF"
_EM_X86_64 = 62


class BuildError(Exception):
    pass


def _project():
    with open(os.path.join(_SOURCE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _binary_path(config_settings):
    path = (config_settings or {}).get("binary") or os.environ.get("GPUDOCTOR_WHEEL_BINARY")
    if not path:
        raise BuildError("no binary: set GPUDOCTOR_WHEEL_BINARY to the portable gpudoctor (scripts/release does)")
    if not os.path.isfile(path):
        raise BuildError(f"GPUDOCTOR_WHEEL_BINARY={path}: no such file (a relative path is taken from python/)")
    return path


def binary_facts(path):
    """(version, glibc minor) of a gpudoctor binary: what the wheel's name and tag are made of."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != _ELF_MAGIC or int.from_bytes(data[18:20], "little") != _EM_X86_64:
        raise BuildError(f"{path} is not an x86-64 ELF executable")
    # The version needs (.gnu.version_r) name glibc's symbol versions in .dynstr as "GLIBC_2.N".
    minors = [int(m) for m in re.findall(rb"\bGLIBC_2\.(\d+)(?![\d.])", data)]
    glibc_minor = max([_OLDEST_GLIBC_MINOR, *minors])
    out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    match = re.fullmatch(r"gpudoctor (\d+\.\d+\.\d+\S*)\s*", out.stdout)
    if out.returncode != 0 or not match:
        raise BuildError(f"{path} --version said {out.stdout!r} (exit {out.returncode})")
    return match.group(1), glibc_minor


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest},{len(data)}"


class _Wheel:
    def __init__(self, path, epoch):
        self._zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self._records = []
        self._time = max(epoch, 315532800)  # zip cannot store times before 1980

    def add(self, name, data, mode=0o644):
        info = zipfile.ZipInfo(name, date_time=_zip_time(self._time))
        info.external_attr = (stat.S_IFREG | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self._zip.writestr(info, data)
        self._records.append(f"{name},{_record_hash(data)}")

    def close(self, record_name):
        self._records.append(f"{record_name},,")
        self.add_unrecorded(record_name, ("\n".join(self._records) + "\n").encode())
        self._zip.close()

    def add_unrecorded(self, name, data):
        info = zipfile.ZipInfo(name, date_time=_zip_time(self._time))
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self._zip.writestr(info, data)


def _zip_time(epoch):
    return time.gmtime(epoch)[:6]


def _metadata(project, version):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Environment :: GPU :: NVIDIA CUDA",
        "Classifier: Framework :: IPython",
        "Classifier: Framework :: Jupyter",
        "Description-Content-Type: text/markdown",
        "",
    ]
    readme = os.path.join(_SOURCE, "README.md")
    body = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    return ("\n".join(lines) + "\n" + body).encode()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    binary = _binary_path(config_settings)
    version, glibc_minor = binary_facts(binary)
    tag = f"py3-none-manylinux_2_{glibc_minor}_x86_64"
    name = f"{_PACKAGE}-{version}-{tag}.whl"
    dist_info = f"{_PACKAGE}-{version}.dist-info"
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    os.makedirs(wheel_directory, exist_ok=True)
    wheel = _Wheel(os.path.join(wheel_directory, name), epoch)
    package_dir = os.path.join(_SOURCE, _PACKAGE)
    for file in sorted(os.listdir(package_dir)):
        if file.endswith(".py"):
            with open(os.path.join(package_dir, file), "rb") as f:
                wheel.add(f"{_PACKAGE}/{file}", f.read())
    build_info = (
        '"""Written by the build backend: what the carried binary is and needs."""\n'
        f"VERSION = {version!r}\nGLIBC_MINOR = {glibc_minor}\nTAG = {tag!r}\n"
    )
    wheel.add(f"{_PACKAGE}/_build_info.py", build_info.encode())
    with open(binary, "rb") as f:
        wheel.add(f"{_PACKAGE}/bin/gpudoctor", f.read(), mode=0o755)
    wheel.add(f"{dist_info}/METADATA", _metadata(project, version))
    wheel.add(
        f"{dist_info}/WHEEL",
        f"Wheel-Version: 1.0\nGenerator: gpudoctor_backend\nRoot-Is-Purelib: false\nTag: {tag}\n".encode(),
    )
    scripts = "".join(f"{k} = {v}\n" for k, v in project.get("scripts", {}).items())
    wheel.add(f"{dist_info}/entry_points.txt", f"[console_scripts]\n{scripts}".encode())
    wheel.close(f"{dist_info}/RECORD")
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []
