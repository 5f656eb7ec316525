# source: https://github.com/NVIDIA/TransformerEngine/pull/1941
# kind: per_step_host_alloc
# bug: the helper that casts master weights to low-precision weights after every optimizer step built its dummy overflow flag with torch.tensor([0], device=cuda), which materialises the value from a Python list on the host and does a pageable host-to-device copy (and CPU sync) on each call; the fix allocates it directly on the device with torch.zeros(1, device=...).
# split: test21
import torch
import torch.distributed as dist


def scale_into(flag, sources, targets, factor):
    if flag.item() != 0:
        return
    for s, t in zip(sources, targets):
        t.copy_(s * factor)


def sync_master_weights_to_lowp(params, group=None):
    amaxes, scales, scale_invs = [], [], []
    for lowp_weight, master_weight, state in params:
        amaxes.append(state["amax"].view(1))
        scales.append(state["scale"].view(1))
        scale_invs.append(state["scale_inv"].view(1))
        if master_weight is None:
            continue
        amax = master_weight.abs().max()
        state["amax"].copy_(torch.maximum(state["amax"], amax))
        lowp_weight.copy_((master_weight * state["scale"]).clamp(-448, 448).to(lowp_weight.dtype))

    if len(amaxes) > 0:
        overflow_flag = torch.tensor([0], dtype=torch.int, device=amaxes[0].device)  # bug: per_step_host_alloc

        packed_amaxes = torch.empty(len(amaxes), dtype=torch.float32, device=amaxes[0].device)
        packed_views = [packed_amaxes[i].view(1) for i in range(len(amaxes))]
        scale_into(overflow_flag, amaxes, packed_views, 1.0)
        if dist.is_available() and dist.is_initialized():
            dist.all_reduce(packed_amaxes, op=dist.ReduceOp.MAX, group=group)
        scale_into(overflow_flag, packed_views, amaxes, 1.0)

        packed_scales = torch.empty(len(scales), dtype=torch.float32, device=scales[0].device)
        scale_views = [packed_scales[i].view(1) for i in range(len(scales))]
        scale_into(overflow_flag, scales, scale_views, 1.0)
        torch.reciprocal(packed_scales, out=packed_scales)
        scale_into(overflow_flag, scale_views, scale_invs, 1.0)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    params = []
    for _ in range(4):
        master = torch.randn(256, device=device)
        lowp = torch.empty(256, dtype=torch.bfloat16, device=device)
        state = {
            "amax": torch.zeros(1, device=device),
            "scale": torch.ones(1, device=device),
            "scale_inv": torch.ones(1, device=device),
        }
        params.append((lowp, master, state))
    for step in range(10):
        for _, m, _ in params:
            m.add_(0.01 * torch.randn_like(m))
        sync_master_weights_to_lowp(params)
    print(params[0][2]["scale_inv"])
