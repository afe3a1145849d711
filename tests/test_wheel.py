"""One wheel for every Python and every Linux since glibc 2.17, installed
where Rust is absent (issue 22): the package builds against CPython's stable
ABI (``cp39-abi3``) for manylinux2014 (linked by zig, from the ``ziglang``
package, so the machine's newer glibc does not leak in), an sdist builds
too, and the wheel installed into a fresh virtual environment whose ``PATH``
has no ``cargo`` or ``rustc`` plays a game, runs a search and steps a
``VecEnv``."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent

maturin = shutil.which("maturin") or shutil.which("maturin", path=str(Path(sys.executable).parent))

SCRIPT = """
import dragoncastle as dc
from dragoncastle.agents import MCTSAgent
assert dc._core.__file__.endswith(".abi3.so"), dc._core.__file__
r = dc.play(dc.Game(players=2, seed=3), [MCTSAgent(iterations=200, seed=1), dc.agents.GreedyAgent(0)])
env = dc.VecEnv(8, players=2, seed=1)
env.reset()
env.step(env.sample())
print("ok", r.scores)
"""


def glibc_needed(wheel: Path, tmp: Path) -> tuple[int, ...]:
    """The newest glibc symbol version the wheel's extension asks for (``objdump -T``)."""
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".so"))
        so = Path(z.extract(name, tmp / "unzipped"))
    table = subprocess.run(["objdump", "-T", str(so)], check=True, capture_output=True, text=True).stdout
    versions = {tuple(int(x) for x in v.split(".")) for v in re.findall(r"GLIBC_([0-9.]+)", table)}
    assert versions, "the extension names no glibc symbol version"
    return max(versions)


def test_the_abi3_wheel_installs_and_runs_without_rust(tmp_path):
    assert maturin is not None, "maturin comes with the test extra (pip install '.[test]')"
    out = tmp_path / "dist"
    assert importlib.util.find_spec("ziglang") is not None, "ziglang comes with the test extra (pip install '.[test]')"
    subprocess.run([maturin, "build", "--release", "--zig", "--compatibility", "manylinux2014", "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=900,
                   env={**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])})
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1 and "-cp39-abi3-manylinux2014_x86_64" in wheels[0].name, wheels
    assert glibc_needed(wheels[0], tmp_path) <= (2, 17)
    subprocess.run([maturin, "sdist", "-o", str(out)], cwd=ROOT, check=True, capture_output=True, timeout=300)
    assert list(out.glob("dragoncastle-*.tar.gz"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # No Rust toolchain on the way: the system's own directories only.
    path = os.pathsep.join([str(env_dir / "bin"), "/usr/bin", "/bin"])
    assert shutil.which("cargo", path=path) is None and shutil.which("rustc", path=path) is None
    clean = {"PATH": path, "HOME": os.environ.get("HOME", str(tmp_path)), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheels[0])], env=clean, check=True, timeout=600,
                   capture_output=True)
    r = subprocess.run([str(python), "-c", SCRIPT], env=clean, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout + r.stderr
