# A CPU run named as such (a timing comparison), a choice taken from a flag, and a helper that only
# records the device: not pins.
import argparse

import torch
from torch import nn


def predict(model, data, device):
    model = model.to(device).eval()
    with torch.no_grad():
        return model(data.to(device))


def note_device(record, device):
    record["device"] = str(device)
    return record


def main(data):
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(8, 1)
    preds = predict(model, data, device)
    preds_on_cpu = predict(model, data, device="cpu")
    if args.cpu:
        preds = predict(model, data, device="cpu")
    note_device({}, device)
    note_device({}, device="cpu")
    return preds, preds_on_cpu
