"""Secrets as file formats, shells and client libraries write them (core/secrecy.py decides with them): a
Kubernetes env entry, an app.config `<add key= value=>`, an XML element, redis.conf, a CloudFormation
parameter, a password piped to a tool's stdin, a tool's own user-and-password flag, a JDBC URL, a client's
auth tuple, a PowerShell script's plain-text SecureString, sqlplus's `user/password@`, JDBC's
password argument, MinIO's `mc alias set`, a Wi-Fi pre-shared key. Rules as secret_shapes.SAID_RULES: (kind, what the
lowercased text must hold, pattern, judge).
Every scan is bounded: names are read from their start and taken whole (`++`), values to 256 characters."""

from __future__ import annotations

from .secret_shapes import _FLAG_VALUE, _TOOL_FLAG

# A secret's name: read ahead a bounded way for the word, then taken whole (no split of a long name is retried).
_SECRET_NAME = r"(?=[\w.:-]{0,64}?(?i:pass|secret|token|api_?key|apikey|credential))[\w.:-]{1,64}+"
_VALUE = r"(?P<value>[^\s\"'<>]{4,256})"
# A call's argument: a string, a call's own parentheses or a name, each taken as a whole (no split retried).
_ARGUMENT = r"(?:\"[^\"\n]{0,256}\"|\([^()\n]{0,256}\)|[^,()\"\s]++){1,16}+"

FORM_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("a password in a Kubernetes env entry", "value:",
     r"\bname:[ \t]*[\"']?" + _SECRET_NAME + r"[\"']?[ \t]*\r?\n[ \t]*value:[ \t]*[\"']?" + _VALUE, "credential"),
    ("a password in a config file", "value",
     r"(?i)\bkey[ \t]*=[ \t]*[\"']" + _SECRET_NAME + r"[\"'][ \t]+value[ \t]*=[ \t]*[\"']" + _VALUE + r"[\"']",
     "password"),
    ("a password in a config file", "</",
     r"(?i)<(?:[\w-]+:)?(?:password|passwd|secret|client_?secret|api_?key|token)>[ \t]*" + _VALUE + r"[ \t]*</",
     "password"),
    ("a password in a config file", "requirepass", r"(?im)^[ \t]*requirepass[ \t]+[\"']?" + _VALUE, "password"),
    ("a password in a config file", "masterauth", r"(?im)^[ \t]*masterauth[ \t]+[\"']?" + _VALUE, "password"),
    ("a password in a CloudFormation parameter", "parametervalue",
     r"\"ParameterKey\"[ \t]*:[ \t]*\"" + _SECRET_NAME + r"\"[ \t]*,[ \t]*\"ParameterValue\"[ \t]*:[ \t]*\""
     + r"(?P<value>[^\"]{4,256})\"", "password"),
    ("a password on a command line", "sqlcmd", r"\b(?:sqlcmd|osql|bcp)\b" + _TOOL_FLAG + r"-P[ \t]*" + _FLAG_VALUE,
     "credential"),
    ("a password piped to a tool", "chpasswd",
     r"\becho[ \t]+(?:-n[ \t]+)?[\"']?[\w.-]{1,64}:(?P<value>[^\s\"':|]{4,256})[\"']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd",
     "password"),
    ("a password piped to a tool", "--password-stdin",
     r"\becho[ \t]+(?:-n[ \t]+)?[\"']?(?P<value>[^\s\"'|]{4,256})[\"']?[ \t]*\|[ \t]*(?:\S+[ \t]+){0,6}?--password-stdin",
     "credential"),
    ("a password piped to a tool", "sudo -s",
     r"\becho[ \t]+(?:-n[ \t]+)?[\"']?(?P<value>[^\s\"'|]{4,256})[\"']?[ \t]*\|[ \t]*sudo[ \t]+-S\b", "credential"),
    ("a password in a JDBC URL", "jdbc:", r"(?i)\bjdbc:oracle:\w+:[\w.$-]{1,64}/(?P<value>[^\s@/\"']{4,256})@",
     "password"),
    ("a password in a client's auth", "auth",
     r"\b(?:auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth)[ \t]*(?:=[ \t]*)?\([ \t]*[\"'][^\"'\n]{1,64}[\"'][ \t]*,"
     r"[ \t]*[\"'](?P<value>[^\"'\n]{4,256})[\"'][ \t]*\)", "password"),
    ("a user's password on a command line", "smbclient",
     r"\bsmbclient\b" + _TOOL_FLAG + r"(?:-U|--user=?)[ \t]*[\"']?[^\s%\"']{1,64}%(?P<value>[^\s\"']{4,256})", "credential"),
    ("a user's password on a command line", "lftp",
     r"\blftp\b" + _TOOL_FLAG + r"-u[ \t]+[\"']?[^\s,\"']{1,64},(?P<value>[^\s\"']{4,256})", "credential"),
    ("a password on a command line", "net use",
     r"(?i)\bnet[ \t]+use[ \t]+(?:[a-z]:[ \t]+)?\\\\[^\s]{1,256}[ \t]+[\"']?(?P<value>(?![/*])[^\s\"']{4,256})",
     "credential"),
    # PowerShell's `ConvertTo-SecureString "..." -AsPlainText`: the password written out in the script.
    ("a password in a PowerShell script", "convertto-securestring",
     r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?[\"'](?P<value>[^\"'\n]{4,256})[\"'][ \t]+-AsPlainText",
     "password"),
    # sqlplus's `user/password@db` (or `user/password` for a local one); not a password that repeats its user.
    ("a password on a command line", "sqlplus",
     r"(?i)\bsqlplus(?:[ \t]+-\w+){0,4}?[ \t]+[\"']?(?P<user>[\w$#.-]{1,64})/(?!(?P=user)(?:[@\s\"']|$))"
     r"(?P<value>[^\s@/\"']{4,256})(?=[@\s\"']|$)", "password"),
    # JDBC's `DriverManager.getConnection(url, user, "password")`: a literal third argument (a variable's name
    # or a call reads it from somewhere). Each argument is read once: a string, a call's parentheses, a name.
    ("a password in a JDBC call", "getconnection",
     r"\bgetConnection\s*\(\s*(?:" + _ARGUMENT + r"\s*,\s*){2}\"(?P<value>[^\"\n]{1,256})\"\s*\)", "password"),
    # MinIO's `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (`mc config host add` before it).
    ("a MinIO client's secret key", "mc ",
     r"\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S{1,64}[ \t]+\S{1,256}[ \t]+[\"']?[^\s\"']{1,128}"
     r"[\"']?[ \t]+[\"']?(?P<value>[^\s\"']{4,256})", "credential"),
    # A Wi-Fi pre-shared key (8 to 63 characters, or 64 hex): a config line's (hostapd, wpa_supplicant,
    # NetworkManager) whatever it looks like, a quoted one, or one said in a sentence with a password's shape.
    ("a Wi-Fi pre-shared key", "psk",
     r"(?im)^[ \t]*(?:wpa_)?psk[ \t]*[:=][ \t]*[\"']?(?P<value>[^\s\"'#]{8,64})[\"']?[ \t]*\r?$", "password"),
    ("a Wi-Fi pre-shared key", "psk", r"(?i)(?<![\w-])(?:wpa_)?psk[ \t]*[:=][ \t]*\"(?P<value>[^\"\n]{8,64})\"",
     "password"),
    ("a Wi-Fi pre-shared key", "psk", r"(?i)(?<![\w-])(?:wpa_)?psk\s*[:=]\s*(?P<value>[^\s\"'`]{8,64})", "shaped"),
    ("a HashiCorp Vault token", "vault login",
     r"\bvault[ \t]+login[ \t]+(?:-\S+[ \t]+){0,4}?(?P<value>[sbr]\.[A-Za-z0-9_-]{24,256})", "credential"),
)
