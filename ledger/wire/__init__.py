"""The wire format and signatures (DESIGN.md §4-5): canonical encoding, the event
envelope and bodies, keys and signatures, the text rule, the clock's time format.
"""
