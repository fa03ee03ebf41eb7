from flow_datasets import FlyingChairs
from torch.utils import data


def fetch_dataloader(args):
    train_dataset = FlyingChairs(args.image_size, split="training")
    train_loader = data.DataLoader(  # expect: PP505
        train_dataset,
        batch_size=args.batch_size,
        pin_memory=False,
        shuffle=True,
        num_workers=4,
        drop_last=True,
    )
    print(f"Training with {len(train_dataset)} image pairs")
    return train_loader
