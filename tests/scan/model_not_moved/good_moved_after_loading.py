import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device)


def load_segmenter(path):
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))
    net.load_state_dict(torch.load(path))
    return net.to(device)


class Autoencoder(nn.Module):
    def __init__(self, use_gpu):
        super().__init__()
        self.encoder = nn.Linear(784, 32)
        self.decoder = nn.Linear(32, 784)
        if use_gpu:
            self.cuda()

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))


def predict(path, images, loss_fn=nn.MSELoss()):
    net = load_segmenter(path)
    criterion = nn.CrossEntropyLoss()
    for img in images:
        batch = img.unsqueeze(0).to(device)
        out = net(batch)
        print(criterion(out, batch.argmax(1)))
