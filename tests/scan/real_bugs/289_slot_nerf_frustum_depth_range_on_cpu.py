# source: https://github.com/KovenYu/uORF/pull/16
# also: https://github.com/KovenYu/uORF/commit/b7ca001472403a1515590bf506d70307ad8a7e30
# kind: tensor_no_device_in_forward
# bug: the object-centric NeRF's camera projection built the frustum's depth samples with `torch.linspace(near, far, D)` on the CPU and indexed them with frustum indices already moved to `self.device`, so constructing the sampling coordinates on the GPU failed with a device mismatch; the merged fix moves the `linspace` result to `self.device`.
# split: test13
import torch


class FrustumProjection:
    def __init__(self, focal_ratio=(350.0 / 320.0, 350.0 / 240.0), near=5, far=16,
                 frustum_size=(64, 64, 64), device="cpu", nss_scale=7):
        self.device = device
        self.near, self.far = near, far
        self.frustum_size = frustum_size
        self.world2nss = torch.diag(torch.tensor([1 / nss_scale] * 3 + [1.0])).unsqueeze(0).to(device)
        fx = focal_ratio[0] * frustum_size[0]
        fy = focal_ratio[1] * frustum_size[1]
        cx, cy = (frustum_size[0] - 1.0) / 2.0, (frustum_size[1] - 1.0) / 2.0
        intrinsic = torch.tensor([[fx, 0, cx, 0], [0, fy, cy, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
        self.cam2pix = intrinsic.to(device)
        self.pix2cam = intrinsic.inverse().to(device)

    def frustum_pixel_coords(self):
        W, H, D = self.frustum_size
        x, y, z = torch.meshgrid(torch.arange(W), torch.arange(H), torch.arange(D), indexing="ij")
        x = x.flatten().to(self.device)
        y = y.flatten().to(self.device)
        z = z.flatten().to(self.device)
        depth_range = torch.linspace(self.near, self.far, D)  # bug: tensor_no_device_in_forward
        z_cam = depth_range[z].to(self.device)
        return torch.stack([x * z_cam, y * z_cam, z_cam, torch.ones_like(z_cam)])

    def sampling_coords(self, cam2world):
        n = cam2world.shape[0]
        W, H, D = self.frustum_size
        cam = torch.matmul(self.pix2cam, self.frustum_pixel_coords().float())
        world = torch.matmul(cam2world, cam)
        nss = torch.matmul(self.world2nss, world)
        return nss.view(n, 4, W, H, D).permute(0, 4, 3, 2, 1)[..., :3].flatten(0, 3)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    proj = FrustumProjection(device=device)
    cam2world = torch.eye(4, device=device).unsqueeze(0).repeat(2, 1, 1)
    print(proj.sampling_coords(cam2world).shape)
