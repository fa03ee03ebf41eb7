from data_provider.data_loader import Dataset_Custom, Dataset_ETT_hour
from torch.utils.data import DataLoader

data_dict = {"ETTh1": Dataset_ETT_hour, "custom": Dataset_Custom}


def data_provider(args, flag):
    Data = data_dict[args.data]
    shuffle_flag = flag != "test"
    data_set = Data(
        root_path=args.root_path, data_path=args.data_path, flag=flag, size=[args.seq_len, args.pred_len]
    )
    data_loader = DataLoader(  # expect: PP505
        data_set,
        batch_size=args.batch_size,
        shuffle=shuffle_flag,
        num_workers=args.num_workers,
        drop_last=True,
    )
    return data_set, data_loader
