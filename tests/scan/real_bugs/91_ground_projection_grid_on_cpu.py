# source: https://github.com/Spiideo/sskit/pull/1
# also: https://github.com/Spiideo/sskit/commit/c5b33d4017a2bb1fde14e54aa2cf910b6f1b36f1
# kind: tensor_no_device_in_forward
# bug: the camera helper that resamples an image onto the ground plane built its pixel grid with a linspace helper (CPU) and added a centre offset made on image.device, so CUDA images failed; the fix moved the grid to image.device (a later commit fixed the same grid in undistort_image).
# split: test2
import torch
import torch.nn.functional as F


def pixel_grid(w: int, h: int) -> torch.Tensor:
    ys = torch.linspace(0.0, h - 1, h).reshape(h, 1).repeat(1, w)
    xs = torch.linspace(0.0, w - 1, w).reshape(1, w).repeat(h, 1)
    return torch.stack([xs, ys], -1)


def to_image_coords(cam: torch.Tensor, pts: torch.Tensor) -> torch.Tensor:
    homo = pts @ cam[:, :3].T + cam[:, 3]
    return homo[..., :2] / homo[..., 2:]


def ground_view(cam, image, width=70, height=120, res=10, centre=(0, 0)):
    offset = torch.as_tensor(centre, device=image.device) - torch.tensor(
        [width / 2, height / 2], device=image.device
    )
    ground = pixel_grid(width * res, height * res) / res + offset  # bug: tensor_no_device_in_forward
    pts = ground.reshape(-1, 2)
    pts = torch.cat([pts, torch.zeros_like(pts[..., :1])], -1)
    uv = to_image_coords(cam, pts).reshape(ground.shape)
    return F.grid_sample(image, uv[None], align_corners=False)


if __name__ == "__main__":
    cam = torch.randn(3, 4, device="cuda")
    img = torch.rand(1, 3, 540, 960, device="cuda")
    print(ground_view(cam, img).shape)
