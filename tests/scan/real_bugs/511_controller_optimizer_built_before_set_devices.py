# source: https://github.com/lanl/hippynn/pull/14
# kind: optimizer_before_move
# bug: a training controller (with its optimizer, e.g. Adagrad, and scheduler) could be built by the user, or restored from a checkpoint, while the model was still on the CPU; setup_training then only moved the model and losses to the training device, so the optimizer's eagerly created state stayed on the CPU and the first step crashed with a cuda/cpu mismatch; the fix (folded in from #15) makes set_devices take the optimizer and reload its state dict after the model transfer so the state follows the parameters.
# split: test24
import torch
import torch.nn as nn


class Controller:
    def __init__(self, optimizer, scheduler=None, batch_size=32, max_epochs=10):
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.batch_size = batch_size
        self.max_epochs = max_epochs


class SetupParams:
    def __init__(self, controller=None, device=None):
        self.controller = controller
        self.device = device


def device_fallback():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def set_devices(model, loss, device):
    if isinstance(device, (tuple, list)):
        model = nn.DataParallel(model, device_ids=device)
        device = torch.device(device[0])
    device = torch.device(device)
    model.to(device)
    loss.to(device)
    return model


def setup_training(model, loss, setup_params: SetupParams):
    model = set_devices(model, loss, setup_params.device or device_fallback())
    return model, setup_params.controller


def train(model, loss, controller, batches, device):
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        value = loss(model(x), y)
        controller.optimizer.zero_grad()
        value.backward()
        controller.optimizer.step()


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(12, 64), nn.Tanh(), nn.Linear(64, 1))
    mse = nn.MSELoss()
    optimizer = torch.optim.Adagrad(net.parameters(), lr=1e-2)  # bug: optimizer_before_move
    controller = Controller(optimizer, torch.optim.lr_scheduler.StepLR(optimizer, 5))
    net, controller = setup_training(net, mse, SetupParams(controller=controller))
    dev = device_fallback()
    data = [(torch.randn(16, 12), torch.randn(16, 1)) for _ in range(4)]
    train(net, mse, controller, data, dev)
