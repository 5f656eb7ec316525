# source: https://github.com/lavi135246/pytorch-Learning-to-See-in-the-Dark/issues/10
# kind: cpu_accumulator
# bug: the Sony training script kept a per-image loss log in a NumPy array and stored loss.data into it each iteration; with the model on CUDA that tensor is a GPU tensor, so the assignment had to convert a CUDA tensor to NumPy and training crashed on GPU; the fix copies the loss to the host before storing it.
# split: test20
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class SeeInDarkLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.LeakyReLU(0.2))
        self.dec = nn.Conv2d(32, 12, 1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(self.dec(self.enc(x)))


def reduce_mean(out_im, gt_im):
    return torch.abs(out_im - gt_im).mean()


def random_patch(ps=64):
    raw = np.random.rand(1, ps, ps, 4).astype(np.float32)
    gt = np.random.rand(1, ps * 2, ps * 2, 3).astype(np.float32)
    return raw, gt


def train(num_images=8, epochs=2):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    g_loss = np.zeros((5000, 1))
    model = SeeInDarkLite().to(device)
    opt = optim.Adam(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for ind in np.random.permutation(num_images):
            input_patch, gt_patch = random_patch()
            in_img = torch.from_numpy(input_patch).permute(0, 3, 1, 2).to(device)
            gt_img = torch.from_numpy(gt_patch).permute(0, 3, 1, 2).to(device)
            model.zero_grad()
            out_img = model(in_img)
            loss = reduce_mean(out_img, gt_img)
            loss.backward()
            opt.step()
            g_loss[ind] = loss.data  # bug: cpu_accumulator
        print(epoch, np.mean(g_loss[np.where(g_loss)]))


if __name__ == "__main__":
    train()
