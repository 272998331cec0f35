"""Translator's workflow: safe typography fixes, PO export and import, status."""
