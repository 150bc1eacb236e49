// The translation suite's shared part: reading the data files, checking a translated body by path,
// and the test class, whose cases live in TestTranslation.cpp (answers, streams, errors, tools) and
// TestTranslationRequests.cpp (requests and refusals).
#pragma once

#include "translate/Translation.h"
#include "wire/SseParser.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

using namespace Aile;
using Wire::Endpoint;

namespace TranslationTest {

inline Endpoint wire(const QString &name)
{
    if (name == QLatin1String("messages"))
        return Endpoint::Messages;
    if (name == QLatin1String("chat"))
        return Endpoint::ChatCompletions;
    return Endpoint::Responses;
}

inline QByteArray data(const QString &file)
{
    QFile f(QStringLiteral(AILE_TRANSLATE_DATA "/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file));
    return f.readAll();
}

// "a.b[2].c" → the value there, undefined when any step is missing.
inline QJsonValue at(QJsonValue v, const QString &path)
{
    static const QRegularExpression step(QStringLiteral("([^.\\[\\]]+)|\\[(\\d+)\\]"));
    auto it = step.globalMatch(path);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedLength(1))
            v = v.isObject() ? v.toObject().value(m.captured(1)) : QJsonValue(QJsonValue::Undefined);
        else
            v = v.isArray() && m.captured(2).toInt() < v.toArray().size() ? v.toArray().at(m.captured(2).toInt()) : QJsonValue(QJsonValue::Undefined);
    }
    return v;
}

inline QString shown(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("<absent>");
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

// Each check is "path=json" (or "path=<absent>").
inline void verify(const QJsonValue &root, const QStringList &checks)
{
    for (const QString &check : checks) {
        const qsizetype eq = check.indexOf(QLatin1Char('='));
        const QString path = check.left(eq);
        const QString want = check.mid(eq + 1);
        const QJsonValue got = at(root, path);
        if (want == QLatin1String("<absent>")) {
            QVERIFY2(got.isUndefined(), qPrintable(path + QStringLiteral(" should be absent, is ") + shown(got)));
            continue;
        }
        const QJsonDocument expected = QJsonDocument::fromJson(("[" + want + "]").toUtf8());
        QVERIFY2(expected.isArray(), qPrintable(QStringLiteral("bad check ") + check));
        QVERIFY2(got == expected.array().at(0), qPrintable(path + QStringLiteral(": got ") + shown(got) + QStringLiteral(", want ") + want));
    }
}

inline void verifyDropped(const QStringList &dropped, const QStringList &expected)
{
    for (const QString &e : expected) {
        bool found = false;
        for (const QString &d : dropped)
            found = found || d.startsWith(e);
        QVERIFY2(found, qPrintable(QStringLiteral("not reported as dropped: ") + e + QStringLiteral(" (reported: ")
                                   + dropped.join(QStringLiteral("; ")) + QLatin1Char(')')));
    }
}

// The client-wire events a translated stream produced, each event's data with its name as "_event".
inline QJsonArray events(const QByteArray &stream)
{
    Wire::SseParser parser;
    QJsonArray out;
    for (const Wire::SseEvent &e : parser.feed(stream)) {
        QJsonObject o = e.data == "[DONE]" ? QJsonObject{{QStringLiteral("done"), true}} : QJsonDocument::fromJson(e.data).object();
        if (!e.name.isEmpty())
            o.insert(QStringLiteral("_event"), QString::fromUtf8(e.name));
        out.append(o);
    }
    return out;
}

inline QByteArray translateStream(Translate::StreamTranslator &t, const QByteArray &transcript)
{
    Wire::SseParser parser;
    QByteArray out;
    for (const Wire::SseEvent &e : parser.feed(transcript))
        out += t.feed(e);
    return out;
}

} // namespace TranslationTest

class TestTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void request_data();
    void request();
    void refusal_data();
    void refusal();
    void answer_data();
    void answer();
    void stream_data();
    void stream();
    void streamIsTranslatedEventByEvent();
    void error_data();
    void error();
    void toolRoundTripClaudeCodeOnChat();
    void toolRoundTripCodexOnMessages();
    void customToolCallToCodex_data();
    void customToolCallToCodex();
    void labelsAndPairs();
};
