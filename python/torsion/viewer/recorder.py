"""Record a simulation and replay it without torsion: a self-contained HTML page, or a GIF / MP4
drawn by torsion's ray-cast depth camera.

The HTML replay holds the scene description (template meshes, one entry per visual shape) and
the pose of every body at every recorded frame, and draws them with a small canvas-2D renderer
written inline (painter's algorithm, flat shading): no script, style or data is fetched, so the
file plays from disk on a machine without network.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

import torsion

from .scene import GROUND_RGBA, HEIGHTMAP_RGBA, Scene, matrix_to_quat, object_colour


def _b64(a: np.ndarray, dtype) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype=dtype).tobytes()).decode("ascii")


class Recorder:
    """Records the pose of every body of `world` each time :meth:`record` is called.

    Objects added or removed during the recording are kept: a body is drawn in the frames in
    which it existed. ``keep_checkpoints`` also keeps a world checkpoint per frame, which
    :meth:`save_video` needs to render frames with the ray-cast camera."""

    def __init__(self, world, *, keep_checkpoints: bool = True):
        if not isinstance(world, torsion.World):
            raise TypeError(f"world must be a torsion.World, got {type(world).__name__}")
        self.world = world
        self.scene = Scene(world)
        self.keep_checkpoints = bool(keep_checkpoints)
        self._body_keys: dict = {}  # (object id, local index) -> column
        self._geoms: list = []  # scene geoms (visual layer), with their body column
        self._geom_keys: set = set()
        self._templates: dict = {}
        self._object_names: dict = {}
        self.times: list[float] = []
        self._frames: list[tuple[np.ndarray, np.ndarray]] = []  # (columns, (n, 7) poses)
        self._checkpoints: list = []
        self._absorb()

    def _absorb(self) -> None:
        """Take in bodies and visual geoms of the scene not seen before."""
        sc = self.scene
        for e in sc.objects.values():
            self._object_names[e.object_id] = e.name
        for g in sc.geoms:
            if g.layer != "visual":
                continue
            b = sc.bodies[g.body]
            key = (b.object_id, b.local_index)
            col = self._body_keys.setdefault(key, len(self._body_keys))
            gkey = (b.object_id, g.name)
            if gkey in self._geom_keys:
                continue
            self._geom_keys.add(gkey)
            if g.template not in self._templates:
                self._templates[g.template] = (len(self._templates), sc.templates[g.template])
            self._geoms.append(dict(name=g.name, kind=g.kind, body=col, template=self._templates[g.template][0],
                                    p=g.position.copy(), q=matrix_to_quat(g.rotation), s=g.scale.copy(), rgba=g.rgba))

    def record(self) -> None:
        """Record the current poses (call it after the steps you want to see, e.g. every frame)."""
        added, removed = self.scene.sync()
        if added or removed:
            self._absorb()
        p, r = self.scene.body_poses()
        q = matrix_to_quat(r) if len(r) else np.zeros((0, 4))
        cols = np.array([self._body_keys[(b.object_id, b.local_index)] for b in self.scene.bodies], dtype=np.int64)
        self._frames.append((cols, np.concatenate([p, q], axis=1)))
        self.times.append(self.world.get_world_time())
        if self.keep_checkpoints:
            self._checkpoints.append(self.world.capture_checkpoint())

    def __len__(self) -> int:
        return len(self._frames)

    def poses(self) -> np.ndarray:
        """(frames, bodies, 7) array of recorded poses (x, y, z, qw, qx, qy, qz); NaN where a
        body did not exist."""
        out = np.full((len(self._frames), len(self._body_keys), 7), np.nan)
        for i, (cols, pq) in enumerate(self._frames):
            out[i, cols] = pq
        return out

    # ---- HTML replay -----------------------------------------------------------------------

    def save_html(self, path, title: str = "torsion replay") -> Path:
        """Write a self-contained HTML replay (play/pause, time slider, drag to orbit, wheel to
        zoom). The page's URL fragment may set the view: #frame=N (and pause), yaw, pitch (rad),
        dist (m) and at=x,y,z (the point the camera orbits; vertical field of view 50 degrees).
        Returns the path."""
        if not self._frames:
            raise RuntimeError("nothing recorded: call record() after steps first")
        path = Path(path)
        poses = self.poses().astype(np.float32)
        templates = [None] * len(self._templates)
        for idx, (v, f) in self._templates.values():
            templates[idx] = {"v": _b64(v, np.float32), "f": _b64(f, np.uint32)}
        geoms = [{"name": g["name"], "kind": g["kind"], "body": g["body"], "t": g["template"],
                  "p": [float(x) for x in g["p"]], "q": [float(x) for x in g["q"]], "s": [float(x) for x in g["s"]],
                  "c": [float(x) for x in g["rgba"][:3]]} for g in self._geoms]
        finite = poses[..., :3][np.isfinite(poses[..., 0])]
        centre = finite.mean(axis=0).tolist() if len(finite) else [0.0, 0.0, 0.0]
        data = {"title": title, "times": [float(t) for t in self.times], "nbodies": int(poses.shape[1]),
                "poses": _b64(poses, np.float32), "templates": templates, "geoms": geoms, "centre": centre}
        html = _HTML.replace("__TITLE__", _escape(title)).replace("__DATA__", json.dumps(data).replace("</", "<\\/"))
        path.write_text(html, encoding="utf-8")
        return path

    # ---- video through the ray-cast camera -------------------------------------------------

    def render_frames(self, camera_position, look_at, width: int = 320, height: int = 240, hfov: float = 60.0,
                      every: int = 1) -> list[np.ndarray]:
        """Render recorded frames with torsion's ray-cast depth camera: each frame's checkpoint is
        restored, the camera shoots depth, segmentation and points, and pixels get their object's
        colour shaded by the surface normal. The world's state at the call is restored after.
        Frames recorded before objects were added or removed (another topology) are skipped.
        Returns (H, W, 3) uint8 images."""
        if not self.keep_checkpoints:
            raise RuntimeError("this Recorder was made with keep_checkpoints=False: it cannot render video")
        if not self._frames:
            raise RuntimeError("nothing recorded: call record() after steps first")
        pos = np.asarray(camera_position, dtype=float)
        at = np.asarray(look_at, dtype=float)
        if pos.shape != (3,) or at.shape != (3,) or not (np.isfinite(pos).all() and np.isfinite(at).all()):
            raise ValueError("camera_position and look_at must be 3 finite numbers each")
        if int(width) < 2 or int(height) < 2 or int(every) < 1:
            raise ValueError("width and height must be >= 2 and every >= 1")
        rot = camera_rotation(pos, at)
        props = torsion.DepthCameraProperties(width=int(width), height=int(height), hfov=float(hfov), clip_far=100.0,
                                              depth=True, segmentation=True, point_cloud=True)
        images = []
        with self.world.lock():
            now = self.world.capture_checkpoint()
            fp = self.world.get_topology_fingerprint()
            try:
                for ck in self._checkpoints[:: int(every)]:
                    if ck.get_topology_fingerprint() != fp:
                        continue
                    self.world.restore_checkpoint(ck)
                    frame = self.world.capture_depth_camera(pos, rot, props)
                    images.append(shade(frame, _colours(self.world), rot))
            finally:
                self.world.restore_checkpoint(now)
        if not images:
            raise RuntimeError("no recorded frame has the world's current objects: cannot render")
        return images

    def save_video(self, path, camera_position, look_at, *, fps: float = 30.0, width: int = 320, height: int = 240,
                   hfov: float = 60.0, every: int = 1) -> Path:
        """Write the recording as a GIF (Pillow) or MP4 (imageio with its ffmpeg plugin), rendered
        by :meth:`render_frames`. The format comes from the file's suffix. Returns the path."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".gif", ".mp4"):
            raise ValueError(f"path must end in .gif or .mp4, got {path.name!r}")
        if not (np.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be > 0, got {fps}")
        if suffix == ".gif":
            try:
                from PIL import Image
            except ImportError as exc:  # pragma: no cover - depends on the environment
                raise ImportError('writing a GIF needs Pillow: pip install "torsion[viewer]"') from exc
            frames = self.render_frames(camera_position, look_at, width, height, hfov, every)
            pics = [Image.fromarray(f, mode="RGB") for f in frames]
            pics[0].save(path, save_all=True, append_images=pics[1:], duration=int(round(1000 / fps)), loop=0)
            return path
        try:
            import imageio.v2 as imageio
            import imageio_ffmpeg  # noqa: F401
        except ImportError as exc:
            raise ImportError("writing an MP4 needs imageio and imageio-ffmpeg: pip install imageio imageio-ffmpeg "
                              "(or save a .gif)") from exc
        frames = self.render_frames(camera_position, look_at, width, height, hfov, every)
        imageio.mimwrite(path, frames, fps=fps)
        return path


def camera_rotation(position, look_at) -> np.ndarray:
    """Camera-to-world rotation of torsion's depth camera (+X forward, +Y left, +Z up) at
    `position` looking at `look_at`, with the world's +Z up."""
    fwd = np.asarray(look_at, float) - np.asarray(position, float)
    n = np.linalg.norm(fwd)
    if n == 0:
        raise ValueError("look_at must differ from the camera position")
    fwd /= n
    up = np.array([0.0, 0.0, 1.0])
    left = np.cross(up, fwd)
    if np.linalg.norm(left) < 1e-9:  # looking straight up or down
        left = np.array([0.0, 1.0, 0.0])
    left /= np.linalg.norm(left)
    return np.stack([fwd, left, np.cross(fwd, left)], axis=1)


def _colours(world) -> np.ndarray:
    """(objects, 3) colour of every object by world index, as the viewer draws it."""
    out = []
    for o in world.get_object_list():
        t = o.get_object_type()
        if t == torsion.ObjectType.GROUND:
            out.append(GROUND_RGBA[:3])
        elif t == torsion.ObjectType.HEIGHTMAP:
            out.append(HEIGHTMAP_RGBA[:3])
        else:
            out.append(object_colour(o.get_id())[:3])
    return np.array(out, dtype=float).reshape(-1, 3)


def shade(frame, colours: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """Colour a depth camera frame: each pixel its object's colour (colours: (objects, 3) by
    world index) times a Lambert term from the surface normal (from the point cloud), a light
    from over the camera; background sky grey-blue."""
    seg = frame.segmentation
    h, w = seg.shape
    img = np.empty((h, w, 3))
    img[:] = (0.78, 0.84, 0.90)
    pts = frame.point_cloud
    dx = np.gradient(pts, axis=1)
    dy = np.gradient(pts, axis=0)
    nrm = np.cross(dx, dy)
    nl = np.linalg.norm(nrm, axis=2, keepdims=True)
    nrm = np.divide(nrm, nl, out=np.zeros_like(nrm), where=nl > 0)
    view = -rot[:, 0]
    nrm *= np.where((nrm @ view) < 0, -1.0, 1.0)[..., None]  # face the camera
    light = view + np.array([0.0, 0.0, 0.8])
    light /= np.linalg.norm(light)
    lam = np.clip(np.nan_to_num(nrm @ light), 0.0, 1.0)
    hit = seg >= 0
    cols = np.asarray(colours, dtype=float)
    idx = np.clip(seg, 0, max(len(cols) - 1, 0))
    base = cols[idx] if len(cols) else np.zeros((h, w, 3))
    img[hit] = base[hit] * (0.35 + 0.65 * lam[hit][:, None])
    return (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_HTML = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{margin:0;background:#c7d6e5;font:13px sans-serif;overflow:hidden}
#bar{position:fixed;left:0;right:0;bottom:0;display:flex;gap:8px;align-items:center;padding:6px 10px;background:rgba(255,255,255,.8)}
#t{flex:1} canvas{display:block}
</style></head><body>
<canvas id="c"></canvas>
<div id="bar"><button id="play">pause</button><input id="t" type="range" min="0" value="0"><span id="lbl"></span></div>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
function dec(s, T){const b=atob(s), u=new Uint8Array(b.length); for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i); return new T(u.buffer);}
const P = dec(D.poses, Float32Array), NB = D.nbodies, NF = D.times.length;
const TM = D.templates.map(t => ({v: dec(t.v, Float32Array), f: dec(t.f, Uint32Array)}));
const cv = document.getElementById("c"), ctx = cv.getContext("2d");
const slider = document.getElementById("t"), lbl = document.getElementById("lbl"), btn = document.getElementById("play");
slider.max = NF - 1;
let frame = 0, playing = true, t0 = performance.now(), simT0 = D.times[0];
let yaw = -2.3, pitch = 0.35, dist = 2.5, C = D.centre;
function qmul(a,b){return [a[0]*b[0]-a[1]*b[1]-a[2]*b[2]-a[3]*b[3], a[0]*b[1]+a[1]*b[0]+a[2]*b[3]-a[3]*b[2], a[0]*b[2]-a[1]*b[3]+a[2]*b[0]+a[3]*b[1], a[0]*b[3]+a[1]*b[2]-a[2]*b[1]+a[3]*b[0]];}
function qmat(q){const [w,x,y,z]=q; return [1-2*(y*y+z*z),2*(x*y-w*z),2*(x*z+w*y), 2*(x*y+w*z),1-2*(x*x+z*z),2*(y*z-w*x), 2*(x*z-w*y),2*(y*z+w*x),1-2*(x*x+y*y)];}
function camera(){
  const ex=C[0]+dist*Math.cos(pitch)*Math.cos(yaw), ey=C[1]+dist*Math.cos(pitch)*Math.sin(yaw), ez=C[2]+dist*Math.sin(pitch);
  let f=[C[0]-ex,C[1]-ey,C[2]-ez]; const n=Math.hypot(...f); f=f.map(x=>x/n);
  let r=[f[1],-f[0],0]; const rn=Math.hypot(...r)||1; r=r.map(x=>x/rn);
  const u=[r[1]*f[2]-r[2]*f[1], r[2]*f[0]-r[0]*f[2], r[0]*f[1]-r[1]*f[0]];
  return {e:[ex,ey,ez], f, r, u};
}
function draw(){
  const W = cv.width = innerWidth, H = cv.height = innerHeight;
  ctx.fillStyle = "#c7d6e5"; ctx.fillRect(0,0,W,H);
  const cam = camera(), foc = 0.5*H/Math.tan(0.5*50*Math.PI/180);
  const light = [0.3, 0.5, 0.8]; const ln = Math.hypot(...light); const L = light.map(x=>x/ln);
  const tris = [], ground = [];
  const base = frame*NB*7;
  function proj(x,y,z){const dx=x-cam.e[0],dy=y-cam.e[1],dz=z-cam.e[2];
    const zc=dx*cam.f[0]+dy*cam.f[1]+dz*cam.f[2];
    return [W/2+foc*(dx*cam.r[0]+dy*cam.r[1]+dz*cam.r[2])/zc, H/2-foc*(dx*cam.u[0]+dy*cam.u[1]+dz*cam.u[2])/zc, zc];}
  for (const g of D.geoms){
    const o = base + g.body*7; if (!(P[o]===P[o])) continue;  // NaN: the body did not exist then
    const bq=[P[o+3],P[o+4],P[o+5],P[o+6]], bR=qmat(bq);
    const gp=[P[o]+bR[0]*g.p[0]+bR[1]*g.p[1]+bR[2]*g.p[2], P[o+1]+bR[3]*g.p[0]+bR[4]*g.p[1]+bR[5]*g.p[2], P[o+2]+bR[6]*g.p[0]+bR[7]*g.p[1]+bR[8]*g.p[2]];
    const R=qmat(qmul(bq,g.q)), t=TM[g.t], v=t.v, f=t.f, n=v.length/3, wv=new Float32Array(v.length);
    for(let i=0;i<n;i++){const x=v[3*i]*g.s[0],y=v[3*i+1]*g.s[1],z=v[3*i+2]*g.s[2];
      wv[3*i]=gp[0]+R[0]*x+R[1]*y+R[2]*z; wv[3*i+1]=gp[1]+R[3]*x+R[4]*y+R[5]*z; wv[3*i+2]=gp[2]+R[6]*x+R[7]*y+R[8]*z;}
    const isGround = g.kind === "ground";
    if (isGround){ // tiles around the scene so none lies behind the camera
      const z=wv[2], s=0.5;
      for(let i=-20;i<20;i++)for(let j=-20;j<20;j++){const x0=Math.round(C[0])+i*s,y0=Math.round(C[1])+j*s;
        const q=[proj(x0,y0,z),proj(x0+s,y0,z),proj(x0+s,y0+s,z),proj(x0,y0+s,z)];
        if(q.some(p=>p[2]<0.05))continue; const k=((i+j)&1)?0.93:1.0;
        ground.push({q, col:g.c.map(c=>Math.round(255*c*k))});}
      continue;
    }
    for(let k=0;k<f.length;k+=3){const a=f[k],b=f[k+1],c=f[k+2];
      const A=[wv[3*a],wv[3*a+1],wv[3*a+2]],B=[wv[3*b],wv[3*b+1],wv[3*b+2]],Cc=[wv[3*c],wv[3*c+1],wv[3*c+2]];
      const u=[B[0]-A[0],B[1]-A[1],B[2]-A[2]], w=[Cc[0]-A[0],Cc[1]-A[1],Cc[2]-A[2]];
      let nx=u[1]*w[2]-u[2]*w[1], ny=u[2]*w[0]-u[0]*w[2], nz=u[0]*w[1]-u[1]*w[0]; const nn=Math.hypot(nx,ny,nz); if(!nn)continue;
      nx/=nn;ny/=nn;nz/=nn;
      const facing=(A[0]-cam.e[0])*nx+(A[1]-cam.e[1])*ny+(A[2]-cam.e[2])*nz; if(facing>0 && g.kind!=="heightmap")continue;
      const pa=proj(...A),pb=proj(...B),pc=proj(...Cc); if(pa[2]<0.05||pb[2]<0.05||pc[2]<0.05)continue;
      let lam=Math.abs(nx*L[0]+ny*L[1]+nz*L[2]); const k2=0.4+0.6*lam;
      tris.push({q:[pa,pb,pc], d:(pa[2]+pb[2]+pc[2])/3, col:g.c.map(c=>Math.round(255*Math.min(1,c*k2)))});
    }
  }
  for(const t of ground){ctx.fillStyle=`rgb(${t.col})`;ctx.beginPath();ctx.moveTo(t.q[0][0],t.q[0][1]);for(const p of t.q.slice(1))ctx.lineTo(p[0],p[1]);ctx.closePath();ctx.fill();}
  tris.sort((a,b)=>b.d-a.d);
  for(const t of tris){ctx.fillStyle=ctx.strokeStyle=`rgb(${t.col})`;ctx.beginPath();ctx.moveTo(t.q[0][0],t.q[0][1]);ctx.lineTo(t.q[1][0],t.q[1][1]);ctx.lineTo(t.q[2][0],t.q[2][1]);ctx.closePath();ctx.fill();ctx.stroke();}
  lbl.textContent = `t = ${D.times[frame].toFixed(3)} s  (frame ${frame+1}/${NF})`;
  slider.value = frame;
}
let dirty = true, shown = -1;  // redraw only when the frame or the view changed
function tick(now){
  if (playing && NF > 1){
    const simT = simT0 + (now - t0)/1000;
    let i = frame; while (i < NF-1 && D.times[i+1] <= simT) i++;
    if (simT > D.times[NF-1]) { i = 0; t0 = now; simT0 = D.times[0]; }
    frame = i;
  }
  if (dirty || frame !== shown) { draw(); shown = frame; dirty = false; }
  requestAnimationFrame(tick);
}
btn.onclick = () => { playing = !playing; btn.textContent = playing ? "pause" : "play"; t0 = performance.now(); simT0 = D.times[frame]; };
slider.oninput = () => { frame = +slider.value; t0 = performance.now(); simT0 = D.times[frame]; };
let drag = null;
cv.onmousedown = e => drag = [e.clientX, e.clientY];
onmouseup = () => drag = null;
onmousemove = e => { if(!drag) return; yaw -= (e.clientX-drag[0])*0.01; pitch = Math.max(-1.4, Math.min(1.4, pitch + (e.clientY-drag[1])*0.01)); drag=[e.clientX,e.clientY]; dirty = true; };
cv.onwheel = e => { dist *= Math.exp(e.deltaY*0.001); e.preventDefault(); dirty = true; };
onresize = () => dirty = true;
const q = new URLSearchParams(location.hash.slice(1));
if (q.has("frame")) { frame = Math.min(NF-1, +q.get("frame")); playing = false; btn.textContent = "play"; }
if (q.has("yaw")) yaw = +q.get("yaw"); if (q.has("pitch")) pitch = +q.get("pitch"); if (q.has("dist")) dist = +q.get("dist");
if (q.has("at")) C = q.get("at").split(",").map(Number);
requestAnimationFrame(tick);
</script></body></html>
"""
