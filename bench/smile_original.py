#!/usr/bin/python3
"""The original Python smile classifier (the program devplace's example was
ported from), for the epoch benchmark. Same model, loss, optimiser, batch
size, transforms and loop as the original, including its per-batch
`loss.item()` and accuracy tensors; plots go to a PNG with matplotlib's Agg
backend instead of a window. torchvision's CelebA class insists on the real
files' checksums, so the dataset is read from the same layout with PIL.

It counts the program's own host synchronisations (Tensor.item, .cpu(),
.tolist(), .numpy(), float() called from this file; library internals such
as the optimiser's are left out) per epoch and prints, per epoch:
  epoch N seconds S syncs K accuracy A validation accuracy V

Two variants, for scripts/gpu-check.sh:
  --as-written    hands the accuracy history to matplotlib as it is, device
                  tensors and all: the original program's failure on a GPU
  --host-metrics  the fix: losses and accuracies summed on the device during
                  the epoch and made host numbers once, when recorded

usage: smile_original.py DATA OUT [--epochs N] [--train-size N] [--valid-size N]
                         [--device cpu|cuda] [--as-written | --host-metrics]
"""
import argparse
import os
import random
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from PIL import Image  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

SYNCS = 0


def _counting(name):
    original = getattr(torch.Tensor, name)

    def wrapper(self, *args, **kwargs):
        global SYNCS
        if sys._getframe(1).f_code.co_filename == __file__:
            SYNCS += 1
        return original(self, *args, **kwargs)

    setattr(torch.Tensor, name, wrapper)


for _name in ("item", "cpu", "tolist", "numpy", "__float__"):
    _counting(_name)


class CelebASmile(Dataset):
    """CelebA's standard layout; the label is attribute 31, "Smiling"."""

    def __init__(self, root, split, limit, train):
        parts = dict(l.split() for l in open(os.path.join(root, "list_eval_partition.txt")) if l.strip())
        lines = open(os.path.join(root, "list_attr_celeba.txt")).read().splitlines()[2:]
        self.items = []
        for line in lines:
            f = line.split()
            if int(parts[f[0]]) == split:
                self.items.append((os.path.join(root, "img_align_celeba", f[0]), int(f[32] == "1")))
            if len(self.items) == limit:
                break
        self.train = train

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        path, label = self.items[i]
        img = Image.open(path).convert("RGB")
        w, h = img.size
        if self.train:  # RandomCrop(178), RandomHorizontalFlip
            x, y = random.randint(0, w - 178), random.randint(0, h - 178)
            img = img.crop((x, y, x + 178, y + 178))
            if random.random() < 0.5:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
        else:  # CenterCrop(178)
            x, y = (w - 178) // 2, (h - 178) // 2
            img = img.crop((x, y, x + 178, y + 178))
        img = img.resize((64, 64), Image.BILINEAR)  # Resize(64)
        t = torch.from_numpy(np.asarray(img, dtype=np.float32) / 255.0).permute(2, 0, 1)  # ToTensor
        return t, label


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--train-size", type=int, default=16000)
    ap.add_argument("--valid-size", type=int, default=1000)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    variant = ap.add_mutually_exclusive_group()
    variant.add_argument("--as-written", action="store_true")
    variant.add_argument("--host-metrics", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(1)
    random.seed(1)
    device = torch.device(args.device)

    train_dl = DataLoader(CelebASmile(args.data, 0, args.train_size, True), args.batch_size, shuffle=True)
    valid_dl = DataLoader(CelebASmile(args.data, 1, args.valid_size, False), args.batch_size, shuffle=False)

    model = nn.Sequential(
        nn.Conv2d(3, 32, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2), nn.Dropout(p=0.5),
        nn.Conv2d(32, 64, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2), nn.Dropout(p=0.5),
        nn.Conv2d(64, 128, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2),
        nn.Conv2d(128, 256, kernel_size=3, padding=1), nn.ReLU(), nn.AvgPool2d(kernel_size=8),
        nn.Flatten(), nn.Linear(256, 1), nn.Sigmoid())
    model.to(device)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    loss_hist_train, accuracy_hist_train, loss_hist_valid, accuracy_hist_valid, x_arr = [], [], [], [], []
    fig = plt.figure(figsize=(12, 4))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)

    def record(metric):
        """A metric as it goes into the history: a host number once per
        epoch with --host-metrics, else as the original keeps it."""
        return metric.item() if args.host_metrics else metric

    global SYNCS
    for epoch in range(args.epochs):
        start, SYNCS = time.perf_counter(), 0
        model.train()
        loss_tmp, accuracy_tmp = 0, 0
        for x_batch, y_batch in train_dl:
            x_batch, y_batch = x_batch.to(device), y_batch.to(device)
            optimizer.zero_grad()
            pred = model(x_batch)[:, 0]
            loss = loss_fn(pred, y_batch.float())
            loss.backward()
            optimizer.step()
            loss_tmp += (loss.detach() if args.host_metrics else loss.item()) * y_batch.size(0)
            is_correct = ((pred >= 0.5).float() == y_batch).float()
            accuracy_tmp += is_correct.sum()
        loss_hist_train.append(record(loss_tmp / len(train_dl.dataset)))
        accuracy_hist_train.append(record(accuracy_tmp / len(train_dl.dataset)))

        model.eval()
        with torch.no_grad():
            loss_tmp, accuracy_tmp = 0, 0
            for x_batch, y_batch in valid_dl:
                x_batch, y_batch = x_batch.to(device), y_batch.to(device)
                pred = model(x_batch)[:, 0]
                loss = loss_fn(pred, y_batch.float())
                loss_tmp += (loss if args.host_metrics else loss.item()) * y_batch.size(0)
                is_correct = ((pred >= 0.5).float() == y_batch).float()
                accuracy_tmp += is_correct.sum()
        loss_hist_valid.append(record(loss_tmp / len(valid_dl.dataset)))
        accuracy_hist_valid.append(record(accuracy_tmp / len(valid_dl.dataset)))

        if args.as_written:  # the history as recorded, device tensors and all
            acc_train, acc_valid = accuracy_hist_train, accuracy_hist_valid
        elif args.host_metrics:  # already host numbers
            acc_train, acc_valid = accuracy_hist_train, accuracy_hist_valid
        else:  # as fixed in the original story: host values for the plot
            acc_train = [a.cpu().item() for a in accuracy_hist_train]
            acc_valid = [a.cpu().item() for a in accuracy_hist_valid]
        ax1.clear()
        ax2.clear()
        x_arr.append(epoch)
        ax1.plot(x_arr, loss_hist_train, "-o", label="Train loss")
        ax1.plot(x_arr, loss_hist_valid, "--<", label="Validation loss")
        ax2.plot(x_arr, acc_train, "-o", label="Train acc.")
        ax2.plot(x_arr, acc_valid, "--<", label="Validation acc.")
        ax1.legend()
        ax2.legend()
        fig.savefig(os.path.join(args.out, "curves.png"))
        print(f"epoch {epoch + 1} seconds {time.perf_counter() - start:.3f} syncs {SYNCS} "
              f"accuracy {float(acc_train[-1]):.4f} validation accuracy {float(acc_valid[-1]):.4f}", flush=True)


if __name__ == "__main__":
    main()
