"""Alembic migrations: the only way the study schema comes into being."""
