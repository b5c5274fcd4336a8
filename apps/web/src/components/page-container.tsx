import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

/** The frame of a page: its title (the same text as its tab) and its content. */
export function PageContainer({
  title,
  extra,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="page-container">
      <div className="page-container__header">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </div>
      {children}
    </section>
  );
}

export function SectionCard(props: { title?: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card title={props.title} extra={props.extra} style={{ marginBottom: 16 }}>
      {props.children}
    </Card>
  );
}
