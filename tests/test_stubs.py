"""python/torsion/_core.pyi must describe every public name of the compiled module, so editors and
type checkers see the real API. Regenerate it with
`pybind11-stubgen torsion._core -o /tmp/stubs && cp /tmp/stubs/torsion/_core.pyi python/torsion/`."""

import ast
import inspect
from pathlib import Path

import torsion
from torsion import _core

STUB = Path(torsion.__file__).with_name("_core.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    classes = {}
    top = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            }
            top.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
    return top, classes


def test_stub_lists_every_public_class_and_method():
    top, classes = stub_names()
    for name, obj in vars(_core).items():
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        assert name in top, f"{name} missing from _core.pyi"
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            own = {k for k in vars(obj) if not k.startswith("_")}
            missing = own - classes[name]
            assert not missing, f"{name}: {sorted(missing)} missing from _core.pyi"
