import numpy as np
import torch


def load_frames(paths):
    stacked = np.stack([np.load(p) for p in paths])
    return torch.from_numpy(stacked).permute(0, 3, 1, 2).float() / 255.0


def generate(model, tokenizer, prompts, device):
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    with torch.no_grad():
        enc["input_ids"].to(device)  # expect: code.to_result_discarded
        enc["attention_mask"].to(device)  # expect: code.to_result_discarded
        return model.generate(**enc, max_new_tokens=32)


def validate(net, train_paths, valid_paths, device):
    train, valid = load_frames(train_paths), load_frames(valid_paths)
    valid.to(device)  # expect: code.to_result_discarded
    net.to(device)
    return net(train.to(device)).mean(), net(valid).mean()
