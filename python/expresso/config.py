"""Kafka client settings: the Java client properties Expresso's commands take (--kafka-config),
turned into the librdkafka settings confluent_kafka takes, so one properties file serves both."""
import os
import re

CONFIG_ENV = "EXPRESSO_KAFKA_CONFIG"  # as the Java side: names a properties file

# Java-only keys with nothing to carry over (the JVM's own defaults, or read through another key)
_DROP = {"ssl.truststore.type", "ssl.keystore.type", "ssl.truststore.password", "default.api.timeout.ms",
         "sasl.login.class", "ssl.protocol", "ssl.enabled.protocols"}


def read_properties(path):
    """A Java .properties file as a dict, as java.util.Properties.load reads it: comments (# !),
    key=value, key: value or key value, a trailing \\ continues the line, \\-escapes (\\= \\: \\uXXXX ...)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError("cannot read Kafka client properties %s: %s" % (path, e)) from None
    props = {}
    logical = ""
    for raw in text.splitlines():
        line = raw.lstrip()
        if not logical and (not line or line[0] in "#!"):
            continue
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:  # an odd number of backslashes: the line goes on
            logical += line[:-1]
            continue
        key, value = _split(logical + line)
        props[key] = value
        logical = ""
    return props


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _split(line):
    """(key, value) of one logical line, escapes resolved."""
    key, i = [], 0
    while i < len(line) and line[i] not in "=: \t":
        if line[i] == "\\" and i + 1 < len(line):
            i += 1
        key.append(line[i])
        i += 1
    while i < len(line) and line[i] in " \t":
        i += 1
    if i < len(line) and line[i] in "=:":
        i += 1
    value = line[i:].lstrip()
    return _unescape("".join(key)), _unescape(value)


def _unescape(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            if n == "u" and i + 6 <= len(text):
                out.append(chr(int(text[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(_ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _jaas_credentials(jaas, source):
    user = re.search(r'username\s*=\s*"([^"]*)"', jaas)
    password = re.search(r'password\s*=\s*"([^"]*)"', jaas)
    if not user or not password:
        raise ValueError("%s: sasl.jaas.config has no username=\"...\" password=\"...\"; librdkafka takes PLAIN"
                         " and SCRAM credentials only (OAUTHBEARER: set librdkafka's sasl.oauthbearer.* keys)" % source)
    return user.group(1), password.group(1)


def librdkafka(props, source="kafka_config"):
    """The confluent_kafka settings for Java client properties (librdkafka's own keys pass through)."""
    out = {}
    for key, value in props.items():
        value = str(value)
        if key == "sasl.jaas.config":
            out["sasl.username"], out["sasl.password"] = _jaas_credentials(value, source)
        elif key == "ssl.truststore.location":
            if props.get("ssl.truststore.type", "JKS").upper() != "PEM":
                raise ValueError("%s: ssl.truststore.location %s is a %s store; librdkafka reads PEM: set"
                                 " ssl.truststore.type=PEM with a PEM file, or ssl.ca.location"
                                 % (source, value, props.get("ssl.truststore.type", "JKS")))
            out["ssl.ca.location"] = value
        elif key == "ssl.keystore.location":
            if props.get("ssl.keystore.type", "JKS").upper() != "PKCS12":
                raise ValueError("%s: ssl.keystore.location %s: librdkafka reads PKCS12 keystores"
                                 " (ssl.keystore.type=PKCS12) or PEM files (ssl.certificate.location,"
                                 " ssl.key.location)" % (source, value))
            out["ssl.keystore.location"] = value
        elif key == "ssl.endpoint.identification.algorithm":
            out[key] = value if value else "none"  # Java's "" turns the host name check off
        elif key not in _DROP:
            out[key] = value  # the same in both (security.protocol, sasl.mechanism, ...) or librdkafka's own
    return out


def resolve(bootstrap, kafka_config):
    """(bootstrap, librdkafka settings) from the arguments, else $EXPRESSO_KAFKA_CONFIG, as the Java side.

    kafka_config: a dict of properties, or the path of a .properties file; bootstrap wins over the
    file's bootstrap.servers."""
    source = "kafka_config"
    if kafka_config is None and os.environ.get(CONFIG_ENV, "").strip():
        kafka_config = os.environ[CONFIG_ENV].strip()
        source = CONFIG_ENV + "=" + kafka_config
    if isinstance(kafka_config, (str, os.PathLike)):
        source = "kafka_config %s" % os.fspath(kafka_config) if source == "kafka_config" else source
        props = read_properties(kafka_config)
    else:
        props = dict(kafka_config or {})
    if bootstrap:
        props["bootstrap.servers"] = bootstrap
    if not props.get("bootstrap.servers"):
        raise ValueError("no Kafka bootstrap servers: Client('host:9092') or bootstrap.servers in " + source)
    settings = librdkafka(props, source)
    return settings["bootstrap.servers"], settings


def describe(settings):
    """Where the client tried to connect, and how, for error messages (never a secret)."""
    protocol = settings.get("security.protocol", "PLAINTEXT")
    mechanism = settings.get("sasl.mechanism", settings.get("sasl.mechanisms"))
    return "%s (security.protocol %s%s)" % (settings["bootstrap.servers"], protocol,
                                           ", sasl.mechanism " + mechanism if mechanism and protocol.upper().startswith("SASL") else "")
