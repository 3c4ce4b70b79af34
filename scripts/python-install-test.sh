#!/usr/bin/env bash
# Installs the Python package (python/) with pip into a fresh virtual
# environment in a temporary folder, without a package index (its build
# backend needs none), and runs its unittest suite (python/test_dtb.py)
# from another folder: against the installed package and the library
# inside it, not the source folder. Needs Go, a C compiler and python3
# with its venv module (Debian: python3-venv). capi's TestPythonInstall
# runs it; DTB_TEST_EXPECT passes on to the suite.
# Usage: scripts/python-install-test.sh [python3]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${1:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset DTB_LIBRARY PYTHONPATH
export PYTHONDONTWRITEBYTECODE=1 DTB_TEST_TABLES=${DTB_TEST_TABLES:-$repo/testdata/golden}
"$python" -m venv "$work/env"
"$work/env/bin/python" -m pip install --quiet --no-index "$repo/python"
cp "$repo/python/test_dtb.py" "$work/"
cd "$work"
"$work/env/bin/python" - <<'PY'
import os, sys
import dtb
package = os.path.dirname(dtb.__file__)
if not package.startswith(sys.prefix + os.sep):
    sys.exit("dtb is %s, not the installed package of %s" % (dtb.__file__, sys.prefix))
if os.path.dirname(dtb.library_path()) != package:
    sys.exit("dtb loads %s, not the library in its package %s" % (dtb.library_path(), package))
PY
"$work/env/bin/python" -m unittest -v test_dtb
