/**
 * `/groups` (spec §2 "Groups"): the groups table (name, member count, whether group plans are
 * available), a form to create one, and the chosen group (`?group=<id>`) with its members and
 * group plans below: the groups feature's panel with the plans feature's editor in it. Every
 * heating plan of the company (rooms' and groups') downloads from here for Excel (decision 0060).
 */
import type { Group } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { usePagedList } from '../../components/paged-list/use-paged-list.ts';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Table, type TableColumn } from '../../components/ui/table.tsx';
import { useGroup } from '../../features/groups/api/get-group.ts';
import { CreateGroupForm } from '../../features/groups/components/create-group-form.tsx';
import { GroupPanel } from '../../features/groups/components/group-panel.tsx';
import { downloadPlans } from '../../features/plans/api/export-plans.ts';
import { PlansSection } from '../../features/plans/components/plans-section.tsx';
import { useGroups } from '../../lib/heating/list-groups.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCan } from '../../lib/use-can.ts';

const EMPTY_PAGE = { results: [], count: 0, page: 1, size: 10 };

export function GroupsPage() {
  const canOperate = useCan('operate');
  const canRead = useCan('read');
  const { t } = useTranslation('groups');
  usePageTitle(t('title'));
  const { t: tPlans, i18n } = useTranslation('plans');
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('group');
  const list = usePagedList();
  const groups = useGroups(list.params);
  const select = (groupId: string | null) => setParams(groupId ? { group: groupId } : {});
  const selected = useGroup(selectedId).data;

  const columns: TableColumn<Group>[] = [
    {
      key: 'name',
      label: t('name'),
      wrap: true,
      render: (group) => (
        <Link
          to={`/groups?group=${group.id}`}
          className="font-medium text-brand-700 hover:underline"
          data-testid={`group-link-${group.id}`}
        >
          {group.name}
        </Link>
      ),
    },
    { key: 'unitCount', label: t('unitCount'), align: 'right' },
    {
      key: 'groupPlansAvailable',
      label: t('plans'),
      wrap: true,
      // Blocked only for new group plans: the active ones still run the other units.
      render: (group) =>
        group.groupPlansAvailable
          ? t('plansAvailable')
          : t('plansBlocked', { count: group.blockingUnits.length }),
    },
  ];

  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canRead && (
          <ExportButtons
            onExport={(format) => downloadPlans(format, i18n.language === 'en' ? 'en' : 'de')}
            labels={{ excel: tPlans('export.csv'), xlsx: tPlans('export.xlsx') }}
            title={tPlans('export.hint')}
            errorText={tPlans('export.error')}
            testid="plans-export"
          />
        )}
      </div>
      {canOperate && <CreateGroupForm onCreated={select} />}
      <SearchInput
        value={list.search}
        onChange={list.setSearch}
        className="sm:max-w-xs"
        testid="groups-search"
      />
      <Table
        label={t('title')}
        columns={columns}
        data={groups.data ?? EMPTY_PAGE}
        rowKey={(group) => group.id}
        {...list.table}
        loading={groups.isPending || (groups.isFetching && groups.isPlaceholderData)}
        emptyText={t('empty')}
        testid="groups-table"
      />
      {selected && (
        <GroupPanel
          key={selected.id}
          group={selected}
          onDeleted={() => select(null)}
          renderPlans={({ groupId, previewUnitId, blockedBy }) => (
            <PlansSection
              owner={{ groupId }}
              preview={previewUnitId ? { unitId: previewUnitId, scope: 'group' } : null}
              blockedBy={blockedBy}
            />
          )}
        />
      )}
    </section>
  );
}
