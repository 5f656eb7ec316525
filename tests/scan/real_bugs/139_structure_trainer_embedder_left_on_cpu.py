# source: https://github.com/ogchen/nanofold/pull/4
# also: https://github.com/ogchen/nanofold/commit/c299e4122886cbe53dbc5742a52b0ee42853b814
# kind: model_not_moved
# bug: the training script moved the structure module to the configured device but never the input embedder that first consumes the (now on-device) batch features; the fix adds input_embedder.to(device).
# split: test4
import configparser
import sys

import torch

from foldlib.data import ChainDataset
from foldlib.model import InputEmbedding, StructureModule


def main(config_path, data_path):
    cfg = configparser.ConfigParser()
    cfg.read(config_path)
    device = cfg.get("General", "device")
    single_dim = cfg.getint("General", "single_embedding_size")

    dataset = ChainDataset(data_path, cfg.getfloat("General", "train_split"), device)
    loader = torch.utils.data.DataLoader(dataset, batch_size=cfg.getint("General", "batch_size"))

    embedder = InputEmbedding.from_config(cfg)  # bug: model_not_moved
    model = StructureModule(**StructureModule.get_args(cfg)).to(device)
    params = list(embedder.parameters()) + list(model.parameters())
    optimizer = torch.optim.Adam(params, lr=cfg.getfloat("Optimizer", "learning_rate"))

    for step, batch in enumerate(loader):
        pair = embedder(batch["target_feat"], batch["positions"])
        single = torch.zeros(*batch["positions"].shape, single_dim, device=device)
        coords, fape, aux = model(single, pair, batch["local_coords"], batch)
        loss = fape + aux
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
