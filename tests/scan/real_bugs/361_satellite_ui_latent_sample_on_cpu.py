# source: https://github.com/Misaliet/Seamless-Satellite-image-Synthesis/issues/1
# also: https://github.com/Misaliet/Seamless-Satellite-image-Synthesis/commit/698e09c97c7e51e895e4b3f029acc1dbd4a35c86
# kind: inputs_not_moved
# bug: the web UI's views module built its CUDA generators through the trainer helpers, but drew the shared latent code with `torch.randn(1, z_dim)` at module level on the CPU and passed it to the generators, so the first linear layer failed with "Tensor for argument #2 'mat1' is on CPU"; the maintainer confirmed it and the fix appends `.cuda()` to the latent sample.
# split: test17
import torch
import torch.nn as nn


class Options:
    z_dim = 8
    gpu_ids = [0]


class LatentGenerator(nn.Module):
    def __init__(self, z_dim, size=32):
        super().__init__()
        self.size = size
        self.fc = nn.Linear(z_dim, 3 * size * size)
        self.refine = nn.Conv2d(6, 3, 3, padding=1)

    def forward(self, img_a, z):
        noise = self.fc(z).view(-1, 3, self.size, self.size)
        return torch.tanh(self.refine(torch.cat([img_a, noise], dim=1)))


def init_model(name):
    opt = Options()
    model = LatentGenerator(opt.z_dim)
    model.load_state_dict(torch.load(f"checkpoints/{name}/latest_net_G.pth", map_location="cpu"))
    model = model.cuda(opt.gpu_ids[0]).eval()
    return model, opt


class ImageProcessor:
    def refresh_buffer_b(self, model, opt, tiles, z):
        outputs = []
        with torch.no_grad():
            for tile in tiles:
                outputs.append(model(tile.cuda(opt.gpu_ids[0]), z))
        return outputs


model, opt = init_model("z1")
img_p = ImageProcessor()
z_sample = torch.randn(1, opt.z_dim, dtype=torch.float32)  # bug: inputs_not_moved


def index(request, tiles):
    return img_p.refresh_buffer_b(model, opt, tiles, z_sample)
