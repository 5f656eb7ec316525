# A cache updated at every step of a script's own loop: its new buffer is made on the host and copied to
# the device of the old one by .type_as().
import torch


class GrowingCache:
    def __init__(self, root):
        self.root = root

    def grow(self, extra):
        m = self.root.shape[0]
        grown = torch.zeros(m + extra, m + extra).type_as(self.root)  # expect: code.tensor_created_then_moved
        grown[:m, :m] = self.root
        self.root = grown
        return grown


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    cache = GrowingCache(torch.eye(4, device=device))
    for step in range(100):
        cache.grow(2)
