# source: https://github.com/pyg-team/pytorch_geometric/issues/407
# also: https://github.com/pyg-team/pytorch_geometric/commit/9bda1eb5bb6f644be3112e942541ac9f0fa12a8c
# kind: tensor_no_device_in_forward
# bug: the mesh-to-point-cloud transform drew its per-point barycentric fractions with `torch.rand(num, 2)` and no device while every other tensor (positions, faces, sampled face indices) came from the input mesh, so applying it to a mesh on the GPU failed; the fix passes `device=pos.device`.
# split: test18
import torch
import torch.nn.functional as F


class Mesh:
    def __init__(self, pos, face):
        self.pos = pos
        self.face = face
        self.normal = None

    def to(self, device):
        self.pos, self.face = self.pos.to(device), self.face.to(device)
        return self


class SurfaceSampler:
    """Uniformly sample `num` points on mesh faces, weighted by face area."""

    def __init__(self, num, keep_faces=False, with_normals=False):
        self.num = num
        self.keep_faces = keep_faces
        self.with_normals = with_normals

    def __call__(self, mesh):
        pos, face = mesh.pos, mesh.face
        scale = pos.abs().max()
        pos = pos / scale

        e1 = pos[face[1]] - pos[face[0]]
        e2 = pos[face[2]] - pos[face[0]]
        area = torch.linalg.cross(e1, e2, dim=1).norm(p=2, dim=1) / 2
        chosen = torch.multinomial(area / area.sum(), self.num, replacement=True)
        face = face[:, chosen]

        uv = torch.rand(self.num, 2)  # bug: tensor_no_device_in_forward
        flip = uv.sum(dim=-1) > 1
        uv[flip] = 1 - uv[flip]

        v1 = pos[face[1]] - pos[face[0]]
        v2 = pos[face[2]] - pos[face[0]]
        if self.with_normals:
            mesh.normal = F.normalize(torch.linalg.cross(v1, v2, dim=1), p=2, dim=1)

        sampled = pos[face[0]] + uv[:, :1] * v1 + uv[:, 1:] * v2
        mesh.pos = sampled * scale
        if not self.keep_faces:
            mesh.face = None
        return mesh


if __name__ == "__main__":
    verts = torch.rand(100, 3)
    faces = torch.randint(0, 100, (3, 180))
    cloud = SurfaceSampler(2048, with_normals=True)(Mesh(verts, faces).to("cuda"))
    print(cloud.pos.shape)
