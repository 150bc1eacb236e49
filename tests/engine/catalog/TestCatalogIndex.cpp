// The catalogue's lookups by provider and model go through an index kept by its writers
// (docs/performance.md "Change 13 (plan)"): these check that the index follows every change a
// merge, an override or a copy makes, as the scans it replaced did. A stale index fails them.
#include "catalog/Catalog.h"

#include <QtTest/QtTest>

using namespace Aile::Catalog;

namespace {

QByteArray table(const char *json)
{
    return QByteArray(json);
}

QString idOf(const ModelInfo *m)
{
    return m ? m->provider + QLatin1Char('/') + m->id : QStringLiteral("none");
}

} // namespace

class TestCatalogIndex : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aModelIsFoundByItsIdThenByTheFirstModelListingTheAlias()
    {
        Catalog c;
        QString error;
        QVERIFY2(c.merge(table(R"({"providers": [{"id": "p"}, {"id": "q"}],
                                   "models": [{"provider": "p", "id": "a", "aliases": ["shared", "a-old"]},
                                              {"provider": "p", "id": "b", "aliases": ["shared", "a"]},
                                              {"provider": "q", "id": "a"}]})"),
                         &error),
                 qPrintable(error));
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("a"))), QStringLiteral("p/a")); // the id before b's alias "a"
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("shared"))), QStringLiteral("p/a"));
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("a-old"))), QStringLiteral("p/a"));
        QCOMPARE(idOf(c.model(QStringLiteral("q"), QStringLiteral("a"))), QStringLiteral("q/a"));
        QCOMPARE(idOf(c.model(QStringLiteral("q"), QStringLiteral("shared"))), QStringLiteral("none")); // aliases stay with their provider
        QCOMPARE(idOf(c.model(QStringLiteral("r"), QStringLiteral("a"))), QStringLiteral("none"));
        QVERIFY(c.provider(QStringLiteral("q")));
        QVERIFY(!c.provider(QStringLiteral("r")));
    }

    void aReplacedModelAnswersWithItsNewAliasesAndPrices()
    {
        Catalog c;
        QString error;
        QVERIFY(c.merge(table(R"({"providers": [{"id": "p"}],
                                  "models": [{"provider": "p", "id": "a", "aliases": ["old"], "input": 1, "output": 2},
                                             {"provider": "p", "id": "b", "aliases": ["later"]}]})"),
                        &error));
        // An override of a (the catalogue API, a configuration's catalog): its old alias names
        // nothing any more, its new alias names it, and it quotes its new prices.
        QVERIFY(c.merge(table(R"({"models": [{"provider": "p", "id": "a", "aliases": ["new"], "input": 3, "output": 4}]})"), &error, true));
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("old"))), QStringLiteral("none"));
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("new"))), QStringLiteral("p/a"));
        QCOMPARE(c.model(QStringLiteral("p"), QStringLiteral("a"))->input.value_or(-1), 3.0);
        QVERIFY(c.model(QStringLiteral("p"), QStringLiteral("a"))->overridden);
        QCOMPARE(c.models().size(), 2); // replaced in place, not added
        QVERIFY(c.merge(table(R"({"models": [{"provider": "p", "id": "b", "aliases": ["later", "old"]}]})"), &error));
        QCOMPARE(idOf(c.model(QStringLiteral("p"), QStringLiteral("old"))), QStringLiteral("p/b"));
        // A provider replaced keeps its place and answers with its new settings.
        QVERIFY(c.merge(table(R"({"providers": [{"id": "p", "name": "Renamed"}]})"), &error));
        QCOMPARE(c.provider(QStringLiteral("p"))->name, QStringLiteral("Renamed"));
        QCOMPARE(c.providers().size(), 1);
    }

    void aCopyAnswersLikeTheOriginalAndChangesApart()
    {
        Catalog original = Catalog::builtIn();
        QVERIFY(!original.models().isEmpty());
        Catalog copy = original;
        for (const ModelInfo &m : original.models()) {
            QCOMPARE(idOf(copy.model(m.provider, m.id)), idOf(original.model(m.provider, m.id)));
            for (const QString &alias : m.aliases)
                QCOMPARE(idOf(copy.model(m.provider, alias)), idOf(original.model(m.provider, alias)));
        }
        const ModelInfo first = original.models().first();
        ModelInfo changed = first;
        changed.input = 123;
        copy.upsertModel(changed);
        QCOMPARE(copy.model(first.provider, first.id)->input.value_or(-1), 123.0);
        QCOMPARE(original.model(first.provider, first.id)->input, first.input);
    }
};

QTEST_GUILESS_MAIN(TestCatalogIndex)
#include "TestCatalogIndex.moc"
