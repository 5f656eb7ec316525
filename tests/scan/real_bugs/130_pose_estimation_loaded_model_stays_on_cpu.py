# source: https://github.com/Unity-Technologies/Robotics-Object-Pose-Estimation/pull/50
# also: https://github.com/Unity-Technologies/Robotics-Object-Pose-Estimation/commit/d4d6e8bbdd4a0695c5c33bcff2675d42649033a9
# kind: loaded_weights_not_moved
# bug: the ROS inference helper rebuilt the pose network and loaded the checkpoint (map_location=device) but never moved the network, while the pre-processed image went to the CUDA device; a reviewer on PR #50 reported it and PR #52 added model.to(device) after load_state_dict.
# split: test4
import torch
import torchvision.transforms as T
from PIL import Image

from pose_net import PoseRegressor

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
_cached = None


def prepare(path, device):
    img = Image.open(path).convert("RGB")
    tf = T.Compose([T.Resize((224, 224)), T.ToTensor()])
    return tf(img).unsqueeze(0).to(device)


def estimate_pose(image_path, weights_path):
    global _cached
    if _cached is None:
        state = torch.load(weights_path, map_location=DEVICE)
        net = PoseRegressor(symmetric=False)  # bug: loaded_weights_not_moved
        net.load_state_dict(state["model"])
        net.eval()
        _cached = net
    batch = prepare(image_path, DEVICE)
    with torch.no_grad():
        translation, rotation = _cached(batch)
    return rotation.cpu().numpy(), translation.cpu().numpy()
