"""Alembic environment: one metadata for mining and labeling tables, the same URL as ppmine."""

from logging.config import fileConfig

from alembic import context

from core.db import make_engine, resolve_url

config = context.config
if config.config_file_name is not None and config.attributes.get("connection") is None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _target_metadata():
    """The one declared schema (:mod:`core.schema`), for autogenerate and `alembic check`. Plain upgrades (every
    ppmine command's first use) skip it."""
    if config.attributes.get("migrate_only"):
        return None
    from core.schema.mining import Base

    return Base.metadata


def _configure(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=_target_metadata(),
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or resolve_url(),
        target_metadata=_target_metadata(),
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:  # called from core.db inside its own transaction
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(resolve_url(config.get_main_option("sqlalchemy.url") or None))
    with engine.connect() as conn:
        _configure(conn)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
