# source: https://github.com/monniert/differentiable-blocksworld/issues/2
# also: https://github.com/monniert/differentiable-blocksworld/commit/773fee22b0366f213a94fbfebf1578f667a0322d
# kind: other
# bug: the scene-colouring helper built its per-block palette values with torch.linspace on the CPU and then indexed that CPU table with a boolean mask computed from the CUDA opacities, which PyTorch >= 1.13 rejects; the maintainer fixed it by taking the mask to the CPU (`.cpu()`) before indexing.
# split: test3
import torch
import torch.nn as nn


def fancy_colormap(values):
    return values.unsqueeze(-1).repeat(1, 3).numpy()


class BlockScene(nn.Module):
    def __init__(self, n_blocks=10, faces_per_block=6, env_faces=12):
        super().__init__()
        self.n_blocks = n_blocks
        self.faces_per_block = faces_per_block
        self.env_faces = env_faces
        self.alpha_logits = nn.Parameter(torch.zeros(n_blocks))
        self.background = nn.Parameter(torch.rand(3))

    def opacities(self):
        return torch.sigmoid(self.alpha_logits)

    @torch.no_grad()
    def face_colors(self, drop_transparent=False, with_env=True):
        levels = torch.linspace(0, 1, self.n_blocks + 1)[1:]
        if drop_transparent:
            levels = levels[self.opacities() > 0.5]  # bug: other
        n_env = self.env_faces if with_env else 0
        values = torch.cat([torch.zeros(n_env), levels.repeat_interleave(self.faces_per_block)])
        colors = fancy_colormap(values)
        return torch.from_numpy(colors).float().to(self.background.device)


if __name__ == "__main__":
    scene = BlockScene().cuda()
    print(scene.face_colors(drop_transparent=True).shape)
