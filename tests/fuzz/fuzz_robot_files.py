"""Mutation fuzzing of torsion's URDF and MJCF readers (not part of the test run: not a test_*
file). Each case mutates a real robot file (pybullet_data URDFs, Gymnasium and dm_control MJCFs)
by a few edits (numbers replaced by nan/inf/negative/huge/garbage, lines deleted or duplicated,
truncation, random bytes, attribute values swapped) and loads it. A ValueError is the expected
answer to a broken file; any other exception, or the worker process dying (a crash), is a
finding, saved to --out with its seed and case number. Runs in a child process, restarted after a
crash, so one run covers the whole time budget:

    PYTHONPATH=python python tests/fuzz/fuzz_robot_files.py --minutes 10 --out /tmp/fuzz

Deterministic: case i of seed s is always the same file.
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing as mp
import os
import random
import re
import sys
import tempfile
import time
import warnings

NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")
REPLACEMENTS = ["nan", "inf", "-inf", "-1", "0", "1e308", "-1e308", "1e-320", "", "abc", "1,2",
                "0 0 0", "1 2 3 4 5 6 7", "-0", "99999999999999999999", "0x10", "1e"]


def seeds():
    import dm_control
    import gymnasium
    import pybullet_data

    root = pybullet_data.getDataPath()
    urdf = [os.path.join(root, f) for f in ("r2d2.urdf", "a1/a1.urdf", "cartpole.urdf",
                                             "franka_panda/panda.urdf", "humanoid/humanoid.urdf",
                                             "random_urdfs/000/000.urdf", "plane_implicit.urdf",
                                             "husky/husky.urdf", "bicycle/bike.urdf")]
    gym = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
    dmc = os.path.join(os.path.dirname(dm_control.__file__), "suite")
    mjcf = sorted(glob.glob(os.path.join(gym, "*.xml"))) + [os.path.join(dmc, f) for f in
                                                           ("cheetah.xml", "humanoid.xml", "walker.xml")]
    return [("urdf", p) for p in urdf] + [("mjcf", p) for p in mjcf]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        if op == 0:  # a number replaced
            nums = list(NUMBER.finditer(text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + rng.choice(REPLACEMENTS) + text[m.end():]
        elif op == 1:  # a line deleted
            lines = text.split("\n")
            if len(lines) > 2:
                del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif op == 2:  # a line duplicated
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif op == 3:  # truncated
            text = text[:rng.randrange(len(text) + 1)]
        elif op == 4:  # random bytes
            k = rng.randrange(len(text) + 1)
            text = text[:k] + "".join(chr(rng.randrange(1, 256)) for _ in range(rng.randint(1, 8))) + text[k:]
        else:  # an attribute value swapped for another's
            vals = list(re.finditer(r'="([^"]*)"', text))
            if len(vals) > 1:
                a, b = rng.sample(vals, 2)
                text = text[:a.start(1)] + b.group(1) + text[a.end(1):]
    return text


def worker(seed, start, queue, tmp):
    import torsion

    files = seeds()
    texts = [(kind, path, open(path, encoding="utf-8", errors="replace").read()) for kind, path in files]
    i = start
    while True:
        rng = random.Random(f"{seed}-{i}")
        kind, path, text = rng.choice(texts)
        case = mutate(text, rng)
        queue.put(("case", i, kind, path))
        out = os.path.join(tmp, "case.xml" if kind == "mjcf" else "case.urdf")
        with open(out, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(case)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                w = torsion.World()
                if kind == "urdf":
                    w.add_articulated_system(out, res_path=os.path.dirname(path))
                else:
                    w.load_mjcf_file(out, ignore_unsupported=rng.random() < 0.5)
        except ValueError:
            pass
        except Exception as e:  # noqa: BLE001 - a finding
            queue.put(("exception", i, kind, path, f"{type(e).__name__}: {e}"[:500]))
        i += 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="/tmp/torsion_fuzz")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    end = time.time() + 60 * args.minutes
    findings = 0
    start = 0
    last = None
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        ctx = mp.get_context("spawn")
        while time.time() < end:
            q = ctx.Queue()
            p = ctx.Process(target=worker, args=(args.seed, start, q, tmp), daemon=True)
            p.start()
            while time.time() < end and p.is_alive():
                try:
                    msg = q.get(timeout=1.0)
                except Exception:  # noqa: BLE001 - queue.Empty
                    continue
                if msg[0] == "case":
                    last = msg
                    cases += 1
                else:
                    findings += 1
                    print("EXCEPTION", msg, flush=True)
                    with open(os.path.join(args.out, f"exception_{args.seed}_{msg[1]}.txt"), "w") as f:
                        f.write(repr(msg))
            if p.is_alive():
                p.terminate()
                p.join()
                break
            # the worker died: the last case crashed it
            if last is None:
                print("the worker died before its first case (exit code", p.exitcode, ")", flush=True)
                return 2
            findings += 1
            print("CRASH", last, "exit code", p.exitcode, flush=True)
            with open(os.path.join(args.out, f"crash_{args.seed}_{last[1]}.txt"), "w") as f:
                f.write(repr(last))
            start = last[1] + 1
    print(f"{cases} cases, {findings} findings", flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
