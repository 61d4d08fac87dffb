"""URDF modules: the seed's ``addArticulatedSystem(filePathOrURDFScript, modules, ...)``.

A module is a URDF fragment, a ``<robot>`` element (a file or text starting with '<') whose links,
joints and materials are added to the robot's before it is loaded: a gripper or a sensor mount
whose joint names a link of the robot as its parent. World.add_articulated_system calls
:func:`join`; the joined text then loads like any URDF string (names must stay unique, every link
must hang from the root: the URDF loader's checks name what is wrong).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

__all__ = ["join"]


def _read(item, what: str) -> tuple[ET.Element, str | None]:
    """(root element, directory of the file or None for text)"""
    if isinstance(item, str) and item.lstrip().startswith("<"):
        text, directory = item, None
    elif isinstance(item, (str, bytes, os.PathLike)):
        path = os.fsdecode(os.fspath(item))
        if "\0" in path:
            raise ValueError(f"{what}: a path must not hold a NUL byte")
        if not os.path.isfile(path):
            raise ValueError(f"{what}: no such URDF file '{path}' (a URDF string must start with '<')")
        with open(path, "rb") as f:
            text = f.read()
        directory = os.path.dirname(os.path.abspath(path))
    else:
        raise ValueError(f"{what} must be a path (str, bytes or os.PathLike) or a URDF string, "
                         f"got {type(item).__name__}")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ValueError(f"{what}: malformed XML: {e}") from None
    if root.tag != "robot":
        raise ValueError(f"{what}: the root element must be <robot>, got <{root.tag}>")
    return root, directory


def _absolute_meshes(root: ET.Element, directory: str) -> None:
    """a fragment file's relative mesh paths, made absolute against its own directory (the
    robot's res_path would otherwise take them)"""
    for mesh in root.iter("mesh"):
        name = mesh.get("filename")
        if name and "://" not in name and not os.path.isabs(name):
            mesh.set("filename", os.path.join(directory, name))


def join(urdf, modules) -> tuple[str, str]:
    """The robot's URDF with every module's elements appended, and the directory relative paths
    of the robot resolve against (its file's; "" for text)."""
    robot, directory = _read(urdf, "urdf")
    for k, module in enumerate(modules):
        root, module_dir = _read(module, f"modules[{k}]")
        if module_dir is not None:
            _absolute_meshes(root, module_dir)
        if len(root) == 0:
            raise ValueError(f"modules[{k}]: the fragment holds no element")
        for element in list(root):
            robot.append(element)
    return ET.tostring(robot, encoding="unicode"), directory or ""
