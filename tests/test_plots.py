"""Pictures: ``dragoncastle bench --plot`` and ``dragoncastle solo --plot``
write valid PNG files (matplotlib, Agg), and a game's SVG picture renders in
a Jupyter notebook run by nbclient."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from dragoncastle.cli import main

# The test extra installs matplotlib and the notebook tools: missing, they fail.
import matplotlib  # noqa: E402


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file, after checking that matplotlib decodes it."""
    from matplotlib.image import imread

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    pixels = imread(str(path))
    assert pixels.shape[:2] == (height, width)
    assert pixels.std() > 0.05  # not a blank picture
    return width, height


def test_importing_dragoncastle_does_not_import_matplotlib():
    code = ("import sys, dragoncastle, dragoncastle.cli, dragoncastle.bench, dragoncastle.plots; "
            "print('matplotlib' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stdout + r.stderr


def test_bench_plot(tmp_path, capsys):
    path = tmp_path / "bench.png"
    assert main(["bench", "--seconds", "0.002", "--games", "50", "--plot", str(path)]) == 0
    out = capsys.readouterr().out
    assert "legal actions, opening" in out and f"plot saved to {path}" in out
    width, height = png_size(path)
    # One pair of bars per operation of the table: a tall picture.
    assert width >= 600 and height >= 500


def test_bench_report_keeps_its_figures_and_adds_times():
    from dragoncastle.bench import OPERATIONS, report
    from dragoncastle.plots import bench_times

    figures = report(seconds=0.001, games=20, out=lambda line: None)
    times = bench_times(figures)
    assert [name for name, _, _ in times] == [op.name for op in OPERATIONS]
    for name, rust, python in times:
        assert 0 < rust and 0 < python and figures[name] == pytest.approx(python / rust)
    assert figures["stepping µs"] > 0 and "thread speed-up" in figures


def test_solo_plot(tmp_path, capsys):
    path = tmp_path / "solo.png"
    assert main(["solo", "--agent", "greedy", "--games", "12", "--seed", "0", "--plot", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ranks:" in out and f"plot saved to {path}" in out
    width, height = png_size(path)
    assert width >= 600 and height >= 300


def test_solo_plot_rank_bands_follow_the_core():
    import dragoncastle as dc
    from dragoncastle.plots import plot_solo, rank_bands

    bands = rank_bands(-5, 70)
    assert [rank for _, _, rank in bands] == list(dict.fromkeys(dc.solo_rank(s) for s in range(-5, 71)))
    assert all(dc.solo_rank(a) == dc.solo_rank(b) == r for a, b, r in bands)
    # Negative scores (the Spirits & Dragons variant) and a single game draw too.
    fig = plot_solo([-3, 4, 4, 12])
    assert [t.get_text() for t in fig.axes[0].child_axes[0].get_xticklabels()] == ["Student", "Devotee"]
    assert plot_solo([61]).axes


def test_game_svg_renders_in_jupyter(tmp_path, monkeypatch):
    """A notebook cell that creates a Game and displays it gets an
    ``image/svg+xml`` output holding an <svg> document."""
    import ipykernel.kernelspec as kernelspec
    import nbclient
    import nbformat
    # A kernel spec of our own for the Python running the tests, found through
    # JUPYTER_PATH: the spec named "python3" may be missing on a fresh machine
    # or, user-wide, start another Python without dragoncastle. The kernel's
    # runtime files and IPython profile go to the temporary directory too.
    kernelspec.write_kernel_spec(tmp_path / "kernels" / "dragoncastle-test",
                                 overrides={"display_name": "dragoncastle test"})
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(
        "import dragoncastle as dc\n"
        "g = dc.Game(players=2, seed=7)\n"
        "g.apply(g.legal_actions()[0])\n"
        "display(g)\n"
        "g"
    ))
    client = nbclient.NotebookClient(nb, kernel_name="dragoncastle-test", timeout=120,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = nb.cells[0].outputs
    assert [o["output_type"] for o in outputs if o["output_type"] != "stream"] == ["display_data", "execute_result"]
    for output in outputs:
        if output["output_type"] == "stream":
            continue
        svg = output["data"]["image/svg+xml"]
        root = ElementTree.fromstring(svg)
        assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
        assert len(list(root.iter())) > 20  # a picture, not an empty frame
        assert "text/plain" in output["data"]
