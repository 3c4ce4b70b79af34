"""The build backend (PEP 517) of the dtb package, the standard library
alone, so that ``pip install ./python`` needs no package index.

It builds libdtb with ``go build -buildmode=c-shared ./capi`` from the
repository around this folder (Go and a C compiler, as for the C
library) and writes a wheel for this machine holding the package dtb/
and the library inside it, where dtb.library_path finds it. It builds
from a checkout only (pip builds a local folder in place): there is no
source distribution.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _project():
    """Returns the strings of pyproject.toml's [project] table, with the
    version dtb's one place holds (internal/version, its v left off)."""
    project, table = {}, None
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*\[(.*)\]\s*$", line)
            if m:
                table = m.group(1).strip()
                continue
            m = re.match(r'\s*([\w-]+)\s*=\s*"(.*)"\s*$', line)
            if m and table == "project":
                project[m.group(1)] = m.group(2)
    with open(os.path.join(ROOT, "internal", "version", "version.go"), encoding="utf-8") as f:
        project["version"] = re.search(r'const Version = "v([^"]+)"', f.read()).group(1)
    return project


def _library_name() -> str:
    """Returns the name dtb looks for the library under on this system."""
    if sys.platform == "win32":
        return "dtb.dll"
    if sys.platform == "darwin":
        return "libdtb.dylib"
    return "libdtb.so"


def _build_library(directory: str) -> str:
    """Builds libdtb into directory and returns its path."""
    if not os.path.isfile(os.path.join(ROOT, "capi", "dtb.h")):
        raise RuntimeError("dtb: %s is not in a dtb checkout (no ../capi/dtb.h): install the "
                           "package from the repository, pip install ./python" % HERE)
    go = shutil.which("go")
    if go is None:
        raise RuntimeError("dtb: no go command on PATH: the package builds libdtb with Go "
                           "(go.dev/doc/install) and a C compiler")
    path = os.path.join(directory, _library_name())
    cmd = [go, "build", "-buildmode=c-shared", "-o", path, "./capi"]
    if subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, CGO_ENABLED="1")).returncode != 0:
        raise RuntimeError("dtb: %s failed (its output is above): it needs Go and a C compiler"
                           % " ".join(cmd))
    return path


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (name, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    dist = re.sub(r"[-_.]+", "_", project["name"]).lower()
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    wheel = "%s-%s-py3-none-%s.whl" % (dist, project["version"], platform)
    info = "%s-%s.dist-info" % (dist, project["version"])
    package = os.path.join(HERE, "dtb")
    with tempfile.TemporaryDirectory() as tmp:
        contents = [("dtb/" + name, _read(os.path.join(package, name)))
                    for name in sorted(os.listdir(package)) if name.endswith(".py")]
        contents += [
            ("dtb/" + _library_name(), _read(_build_library(tmp))),
            (info + "/METADATA", ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
                                  "Requires-Python: %s\n" % (project["name"], project["version"],
                                                             project["description"],
                                                             project["requires-python"])).encode()),
            (info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: dtb build_backend\n"
                               "Root-Is-Purelib: false\nTag: py3-none-%s\n" % platform).encode()),
            (info + "/top_level.txt", b"dtb\n"),
        ]
        record = "".join(_record_line(name, data) for name, data in contents)
        record += info + "/RECORD,,\n"
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in contents + [(info + "/RECORD", record.encode())]:
                z.writestr(name, data)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("dtb: no source distribution: the package builds libdtb from the "
                       "repository's Go sources; install it from a checkout, pip install ./python")
