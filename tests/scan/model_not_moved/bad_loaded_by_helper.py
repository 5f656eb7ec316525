# A helper builds and loads the network and returns it on the CPU; the caller moves only the images.
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device)


def load_segmenter(path):
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))
    net.load_state_dict(torch.load(path))
    return net


def predict(path, images):
    net = load_segmenter(path)  # expect: code.model_not_moved
    net.eval()
    with torch.no_grad():
        for img in images:
            batch = img.unsqueeze(0).to(device)
            print(net(batch).argmax(1))
