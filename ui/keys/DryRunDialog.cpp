#include "DryRunDialog.h"

#include "common/Format.h"
#include "common/ManagementClient.h"

#include <QtCore/QJsonArray>
#include <QtCore/QLocale>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

DryRunDialog::DryRunDialog(ManagementClient *client, const QString &keyId, const QString &keyName, QWidget *parent)
    : QDialog(parent),
      m_client(client),
      m_keyId(keyId),
      m_model(new QLineEdit(this)),
      m_run(new QPushButton(tr("&Dry run"), this)),
      m_results(new QTreeWidget(this)),
      m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("dryRunDialog"));
    setWindowTitle(tr("Dry run a request with %1").arg(keyName));
    m_model->setObjectName(QStringLiteral("dryRunModel"));
    m_model->setAccessibleName(tr("Model or route"));
    m_model->setPlaceholderText(tr("a route name, provider/model or auto/model, e.g. openai/gpt-5.2"));
    m_run->setObjectName(QStringLiteral("dryRunButton"));
    m_run->setAccessibleName(tr("Dry run"));
    m_run->setDefault(true);
    m_results->setObjectName(QStringLiteral("dryRunResults"));
    m_results->setAccessibleName(tr("What the request would do"));
    m_results->setHeaderLabels({tr("Target / sharer"), tr("Quote"), tr("Tested"), tr("First byte"), tr("Note")});
    m_results->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_results->setRootIsDecorated(true);
    m_summary->setObjectName(QStringLiteral("dryRunSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_summary->setText(tr("Nothing is sent to a sharer, charged or written. The key's saved settings apply."));

    auto *form = new QFormLayout;
    auto *row = new QHBoxLayout;
    row->addWidget(m_model, 1);
    row->addWidget(m_run);
    auto *label = new QLabel(tr("&Model:"), this);
    label->setBuddy(m_model);
    form->addRow(label, row);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_summary);
    layout->addWidget(close);
    connect(m_run, &QPushButton::clicked, this, &DryRunDialog::run);
    connect(m_model, &QLineEdit::returnPressed, this, &DryRunDialog::run);
    resize(760, 420);
}

void DryRunDialog::setModel(const QString &model)
{
    m_model->setText(model);
}

QString DryRunDialog::summary() const
{
    return m_summary->text();
}

void DryRunDialog::run()
{
    const QString model = m_model->text().trimmed();
    if (model.isEmpty() || !m_client)
        return;
    m_run->setEnabled(false);
    const QJsonObject ask{{QStringLiteral("model"), model}, {QStringLiteral("key"), m_keyId}};
    m_client->call(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"), QJsonDocument(ask), this,
                   [this](int status, const QJsonDocument &body) {
                       m_run->setEnabled(true);
                       if (status != 200) {
                           m_results->clear();
                           m_summary->setText(ManagementClient::errorMessage(status, body));
                           Q_EMIT answered();
                           return;
                       }
                       show(status, body.object());
                   });
}

QString DryRunDialog::routeLine(const QJsonObject &route)
{
    const QString order = route.value(QLatin1String("order")).toString();
    QString line = order == QLatin1String("cheapest")      ? tr("Route %1 tries its targets cheapest first.")
                   : order == QLatin1String("round-robin") ? tr("Route %1 tries its targets in turn (round-robin).")
                                                           : tr("Route %1 tries its targets in order.");
    line = line.arg(route.value(QLatin1String("name")).toString());
    if (const int ttft = route.value(QLatin1String("ttftMs")).toInt(0); ttft > 0)
        line += QLatin1Char(' ') + tr("A target with no first token within %1 s is dropped for the next (never the last).")
                                       .arg(QLocale().toString(ttft / 1000.0, 'g', 6));
    return line;
}

void DryRunDialog::show(int, const QJsonObject &answer)
{
    m_answer = answer;
    m_results->clear();
    for (const QJsonValue &tv : answer.value(QLatin1String("targets")).toArray()) {
        const QJsonObject t = tv.toObject();
        auto *target = new QTreeWidgetItem(m_results, {t.value(QLatin1String("target")).toString()});
        // A target refused before any sharer is asked (a spent budget, a cap no sharer fits): the
        // route would move on to the next one.
        if (const QJsonObject refusal = t.value(QLatin1String("refusal")).toObject(); !refusal.isEmpty()) {
            const QString code = refusal.value(QLatin1String("code")).toString();
            const QString why = code == QLatin1String("budget_spent") ? tr("budget spent") : code.isEmpty() ? tr("refused") : code;
            target->setText(4, tr("%1 (HTTP %2): skipped").arg(why).arg(refusal.value(QLatin1String("status")).toInt()));
            auto *line = new QTreeWidgetItem(target, {tr("refused: %1").arg(refusal.value(QLatin1String("message")).toString())});
            line->setToolTip(0, line->text(0));
            line->setFirstColumnSpanned(true);
        }
        for (const QJsonValue &v : t.value(QLatin1String("sharers")).toArray()) {
            const QJsonObject s = v.toObject();
            const QJsonValue quote = s.value(QLatin1String("quoteUsd"));
            const QString note = s.value(QLatin1String("first")).toBool()           ? tr("tried first")
                                 : s.value(QLatin1String("tiedWithFirst")).toBool() ? tr("tied with the first")
                                                                                     : QString();
            new QTreeWidgetItem(target, {QStringLiteral("%1. %2 (%3)")
                                             .arg(s.value(QLatin1String("rank")).toInt())
                                             .arg(s.value(QLatin1String("name")).toString(), s.value(QLatin1String("handle")).toString()),
                                         quote.isDouble() ? QStringLiteral("$") + QLocale().toString(quote.toDouble(), 'f', 6) : tr("unquotable"),
                                         s.value(QLatin1String("tested")).toBool() ? tr("tested") : tr("not tested"),
                                         Format::duration(qint64(s.value(QLatin1String("ttfbMs")).toDouble(-1))), note});
        }
        if (const int more = t.value(QLatin1String("more")).toInt())
            new QTreeWidgetItem(target, {tr("… and %1 more").arg(more)});
        for (const QJsonValue &v : t.value(QLatin1String("removed")).toArray()) {
            const QJsonObject r = v.toObject();
            new QTreeWidgetItem(target, {tr("removed: %1 (%2)").arg(r.value(QLatin1String("name")).toString(), r.value(QLatin1String("handle")).toString()),
                                         QString(), QString(), QString(), r.value(QLatin1String("reason")).toString()});
        }
        const QJsonObject unavailable = t.value(QLatin1String("unavailable")).toObject();
        for (auto it = unavailable.begin(); it != unavailable.end(); ++it)
            new QTreeWidgetItem(target, {tr("unavailable (%1): %2").arg(it.key()).arg(it.value().toInt())});
        target->setExpanded(true);
    }
    QString text;
    if (const QJsonObject route = answer.value(QLatin1String("route")).toObject(); !route.isEmpty())
        text = routeLine(route) + QLatin1Char(' ');
    if (const QJsonObject refusal = answer.value(QLatin1String("refusal")).toObject(); !refusal.isEmpty())
        text += tr("A real request would be refused: HTTP %1, %2").arg(refusal.value(QLatin1String("status")).toInt()).arg(refusal.value(QLatin1String("message")).toString());
    else if (answer.value(QLatin1String("ordering")).toString() == QLatin1String("sampled"))
        text += tr("The order is sampled: ties are drawn again for a real request.");
    else
        text += tr("The order is fixed.");
    m_summary->setText(text + QLatin1Char(' ') + tr("Nothing was sent, charged or written."));
    Q_EMIT answered();
}

} // namespace Aile::Ui
