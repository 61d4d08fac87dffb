"""The type stubs (python/torsion/_core/*.pyi) must describe every public name of the compiled
module and its submodules, so editors and type checkers see the real API. Regenerate them with
`pybind11-stubgen torsion._core -o /tmp/stubs && cp /tmp/stubs/torsion/_core/*.pyi python/torsion/_core/`."""

import ast
import inspect
from pathlib import Path

import pytest

import torsion
from torsion import _core

STUBS = Path(torsion.__file__).with_name("_core")


def stub_names(path):
    tree = ast.parse(path.read_text())
    classes, top = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {
                n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
            } | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            }
            top.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return top, classes


def modules():
    yield _core, STUBS / "__init__.pyi"
    for name, obj in vars(_core).items():
        if inspect.ismodule(obj) and obj.__name__.startswith("torsion._core."):
            yield obj, STUBS / f"{name}.pyi"


@pytest.mark.parametrize("module,stub", list(modules()), ids=lambda v: getattr(v, "__name__", str(v)))
def test_stub_lists_every_public_class_and_method(module, stub):
    assert stub.exists(), f"{stub} is missing"
    top, classes = stub_names(stub)
    for name, obj in vars(module).items():
        if name.startswith("_") or inspect.ismodule(obj):
            continue
        assert name in top, f"{module.__name__}.{name} missing from {stub.name}"
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            own = {k for k in vars(obj) if not k.startswith("_")}
            missing = own - classes[name]
            assert not missing, f"{module.__name__}.{name}: {sorted(missing)} missing from {stub.name}"
