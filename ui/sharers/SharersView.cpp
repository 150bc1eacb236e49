#include "SharersView.h"

#include "SharersModel.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

SharersView::SharersView(QWidget *parent)
    : QWidget(parent), m_model(new SharersModel(this)), m_table(new QTableView(this)), m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("sharersView"));
    m_table->setObjectName(QStringLiteral("sharersTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setObjectName(QStringLiteral("sharersHeader"));
    m_table->setTabKeyNavigation(false);
    m_table->setAccessibleName(tr("Sharers"));
    m_table->setAccessibleDescription(tr("The upstream accounts the proxy can dial, one per row"));

    m_summary->setObjectName(QStringLiteral("sharersSummary"));
    m_summary->setWordWrap(true);
    m_summary->setAccessibleName(tr("Sharers summary"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    setSharers({});
}

void SharersView::setSharers(const QJsonArray &sharers)
{
    m_model->setSharers(sharers);
    int ready = 0;
    for (const QJsonValue &v : sharers)
        ready += v.toObject().value(QLatin1String("credentialAvailable")).toBool() ? 1 : 0;
    if (sharers.isEmpty())
        m_summary->setText(tr("No sharer yet. Add sharers to the configuration file and start Aile with --config FILE."));
    else
        m_summary->setText(tr("Sharers: %1, with a usable credential: %2").arg(sharers.size()).arg(ready));
    m_table->resizeColumnsToContents();
}

} // namespace Aile::Ui
