# An inference helper that loads weights into a freshly built network, never moves it, and feeds
# it an image that a preparation helper returns on the device.
import torch

from posenet import PoseNet

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def prepare(img, device):
    return torch.as_tensor(img).permute(2, 0, 1).float().unsqueeze(0).to(device)


def estimate(img, weights):
    state = torch.load(weights, map_location=DEVICE)
    net = PoseNet()  # expect: code.model_not_moved
    net.load_state_dict(state)
    net.eval()
    with torch.no_grad():
        return net(prepare(img, DEVICE))
