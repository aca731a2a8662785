__version__ = '0.1.0'
# Wire protocol version spoken (schemas/v1/defs/protocol_version.json).
PROTOCOL_VERSION = 1
