from bert.model import BERT
from bert.trainer import BERTTrainer, summarize
from dataset import BERTDataset, WordVocab
from torch.utils.data import DataLoader


def train(args):
    vocab = WordVocab.load_vocab(args.vocab_path)
    train_dataset = BERTDataset(args.train_dataset, vocab, seq_len=args.seq_len)
    train_data_loader = DataLoader(  # expect: PP505
        train_dataset, batch_size=args.batch_size, num_workers=args.num_workers
    )
    corpus_loader = DataLoader(train_dataset, batch_size=1024, num_workers=args.num_workers)
    print(summarize(corpus_loader, len(vocab)))
    test_dataset = BERTDataset(args.test_dataset, vocab, seq_len=args.seq_len)
    test_data_loader = DataLoader(test_dataset, batch_size=args.batch_size, num_workers=4, pin_memory=True)
    bert = BERT(len(vocab), hidden=args.hidden)
    trainer = BERTTrainer(
        bert, len(vocab), train_dataloader=train_data_loader, test_dataloader=test_data_loader
    )
    for epoch in range(args.epochs):
        trainer.train(epoch)
        trainer.test(epoch)
